/** The generated vendor chunk re-exports every export of the shared packages and modules. */
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './layout.ts';
import { packageExports, SHARED, sharedChunkSource } from './shared-chunk.ts';

/** The generated module's export names, as esbuild sees them when it bundles it. */
async function generatedExports(): Promise<string[]> {
  const result = await esbuild.build({
    stdin: { contents: sharedChunkSource(), resolveDir: ROOT, loader: 'js' },
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    outdir: join(ROOT, '.tmp', 'shared-chunk-test'),
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint !== undefined);
  return output!.exports;
}

describe('the shared vendor chunk', () => {
  it.each(SHARED.packages.map((pkg) => [pkg]))("covers %s's exports, read from the package", async (pkg) => {
    const names = Object.keys(packageExports(pkg));
    expect(names.length).toBeGreaterThan(0);
    expect(await generatedExports()).toEqual(expect.arrayContaining(names));
  });

  it.each(SHARED.modules.map((file) => [file]))("covers %s's exports", async (file) => {
    const names = Object.keys(await import(join(ROOT, file)));
    expect(names.length).toBeGreaterThan(0);
    expect(await generatedExports()).toEqual(expect.arrayContaining(names));
  });

  it('lists each name once', async () => {
    const names = await generatedExports();
    expect(new Set(names).size).toBe(names.length);
  });
});
