/**
 * The vendor chunk every first load shares, generated at build time from one list (esbuild has no
 * manual chunks: evanw/esbuild#207). Each page imports a different mix of React, its JSX runtime
 * and a few modules of ours, and esbuild makes a chunk per mix, each with its own import lists. So
 * in the browser build, our code's imports of them (and react-router's) resolve to one generated
 * module that re-exports all of them: they share one set of importers and esbuild emits one chunk
 * (~1.3 KB gzip off every first load). React is CommonJS: its export names are read from the
 * packages themselves here, so a React upgrade needs no edit. No react-router in the list: only the
 * router chunk, loaded after hydration, has it (decision 043).
 */
import type * as esbuild from 'esbuild';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROOT } from './layout.ts';

/** The one list: packages whose every export is shared, and our modules every first load needs. */
export const SHARED = {
  packages: ['react', 'react/jsx-runtime', 'react-dom'],
  modules: [
    'src/shared/pages.ts',
    'src/shared/ui/app-context.tsx',
    'src/shared/ui/navigation.tsx',
    'src/shared/ui/PrefetchLink.tsx',
    'src/shared/ui/radio/PlayerProvider.tsx',
  ],
} as const;

const requireFromRoot = createRequire(join(ROOT, 'package.json'));

/** A package's export names, as Node loads it. */
export const packageExports = (name: string): Record<string, unknown> =>
  requireFromRoot(name) as Record<string, unknown>;

/**
 * The generated module. A name two packages export (react and its JSX runtime both export
 * `Fragment`) is re-exported once, from the first, and must be the same value in both.
 */
export function sharedChunkSource(): string {
  const firstOwner = new Map<string, string>();
  const lines = SHARED.packages.map((pkg) => {
    const exports = packageExports(pkg);
    const names = Object.keys(exports).filter((name) => {
      const owner = firstOwner.get(name);
      if (owner === undefined) {
        firstOwner.set(name, pkg);
        return true;
      }
      if (!Object.is(packageExports(owner)[name], exports[name]))
        throw new Error(`shared chunk: "${name}" differs between ${owner} and ${pkg}`);
      return false;
    });
    return `export { ${names.join(', ')} } from ${JSON.stringify(pkg)};`;
  });
  for (const file of SHARED.modules) lines.push(`export * from ${JSON.stringify(join(ROOT, file))};`);
  return `${lines.join('\n')}\n`;
}

const NAMESPACE = 'shared-chunk';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Resolves our code's imports of the shared packages and modules to the generated module (the
 * shared modules themselves, and the generated module, import the real files), and react-router's
 * import of react-dom (flushSync), so react-dom is not a chunk of its own between the app and the
 * router. react-router's imports of react stay: it takes React's namespace, not a list of names.
 */
export const oneSharedChunk: esbuild.Plugin = {
  name: 'one-shared-chunk',
  setup(build) {
    const ours = join(ROOT, 'src/');
    const sharedModules = new Set(SHARED.modules.map((file) => join(ROOT, file)));
    const generated = { path: NAMESPACE, namespace: NAMESPACE };
    const redirect = (importer: string) =>
      importer.startsWith(ours) && !sharedModules.has(importer) ? generated : undefined;
    const packages = new RegExp(`^(${SHARED.packages.map(escapeRegExp).join('|')})$`);
    build.onResolve({ filter: packages }, (args) => redirect(args.importer));
    const reactRouter = join(ROOT, 'node_modules/react-router/');
    build.onResolve({ filter: /^react-dom$/ }, (args) =>
      args.importer.startsWith(reactRouter) ? generated : undefined,
    );
    build.onResolve({ filter: /^\.\.?\// }, (args) =>
      sharedModules.has(join(dirname(args.importer), args.path)) ? redirect(args.importer) : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({
      contents: sharedChunkSource(),
      resolveDir: ROOT,
      loader: 'js',
    }));
  },
};
