/**
 * The process entry, bundled as CommonJS for a fast start (scripts/bundle.mjs): answers the fast path, or
 * loads the program's bundle and runs the command line as this process (process-run.ts, in the bundle).
 * Node compiles this file at every start, as it is: only the fast path and the loader are here. Everything
 * else is in the bundles, whose compiled code is cached (code-cache.ts).
 */
import { fastPathOutput } from './fast-path.js';
import { jsonRun, lastResortLine, outputError, OUTPUT_FAILED } from './last-resort.js';
import { requireCached } from './code-cache.js';
import { privateCacheDir } from '../storage/private-cache-dir.js';
import { lightCommand } from './light-run.js';

/** The program's bundle beside this entry (scripts/bundle.mjs defines it; unbundled, main.js is imported). */
declare const ENERGY_MAIN_BUNDLE: string | undefined;
/** balance and time alone, without commander (light-run.ts, light-main.ts). */
declare const ENERGY_LIGHT_BUNDLE: string | undefined;

/** What each bundle exports: main.ts and light-main.ts. */
type Program = Pick<typeof import('./main.js'), 'start'>;

const args = process.argv.slice(2);
const fast = fastPathOutput(args);

if (fast !== undefined) {
  // A direct write: creating process.stdout would load Node's streams stack for a few lines.
  const fs = process.getBuiltinModule('node:fs');
  try {
    fs.writeSync(1, fast);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPIPE') {
      fs.writeSync(2, outputError(jsonRun(args), error as NodeJS.ErrnoException));
      process.exitCode = OUTPUT_FAILED;
    }
  }
} else if (typeof ENERGY_MAIN_BUNDLE === 'string') {
  const light = typeof ENERGY_LIGHT_BUNDLE === 'string' && lightCommand(args) !== undefined;
  const file = process.getBuiltinModule('node:path').join(__dirname, light ? ENERGY_LIGHT_BUNDLE : ENERGY_MAIN_BUNDLE);
  let program: Program | undefined;
  try {
    program = requireCached(file, privateCacheDir(process.env)) as Program;
  } catch (error) {
    // A bundle that cannot load (a damaged install): one line, not Node's stack trace.
    const message = `internal error: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(lastResortLine(jsonRun(args), message, 1));
    process.exitCode = 1;
  }
  program?.start(args);
} else {
  // Unbundled (tsc's output): the program as an ES module.
  void import('./main.js').then((program: Program) => program.start(args));
}
