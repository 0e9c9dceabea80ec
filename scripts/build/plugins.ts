/** esbuild plugins of the production build (the shared vendor chunk has its own module: shared-chunk.ts). */
import type * as esbuild from 'esbuild';
import { join } from 'node:path';
import { ROOT } from './layout.ts';

/**
 * react-router's package exports point every bundler (and Node) at its development build; its
 * production build drops dev-only warnings and checks. react-router-dom is a re-export of it, so
 * both resolve to the production files, on the client and, bundled in, on the server.
 */
export const reactRouterProduction: esbuild.Plugin = {
  name: 'react-router-production',
  setup(build) {
    const files: Record<string, string> = {
      'react-router': 'node_modules/react-router/dist/production/index.mjs',
      'react-router/dom': 'node_modules/react-router/dist/production/dom-export.mjs',
      'react-router-dom': 'node_modules/react-router-dom/dist/index.mjs',
    };
    build.onResolve({ filter: /^react-router(-dom|\/dom)?$/ }, (args) => ({ path: join(ROOT, files[args.path]!) }));
  },
};
