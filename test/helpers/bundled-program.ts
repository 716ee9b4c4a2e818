/**
 * A small program written in a test against the project's own modules (imported as `./src/….ts`), bundled
 * with esbuild into one CommonJS file that child processes run: the module under test, as a process of its
 * own, without building dist/.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Writes the bundled `source` to `outfile` and returns its path. */
export async function bundleProgram(source: string, outfile: string): Promise<string> {
  await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    outfile,
    logLevel: 'error',
  });
  return outfile;
}
