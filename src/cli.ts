/**
 * The process entry, bundled as CommonJS for a fast start (scripts/bundle.mjs): answers the fast path,
 * or loads the program (an ES module) and runs it with the real streams, environment and exit status.
 */
import { fastPathOutput } from './fast-path.js';

const args = process.argv.slice(2);
const fast = fastPathOutput(args);
if (fast !== undefined) {
  // A direct write: creating process.stdout would load Node's streams stack for a few lines.
  process.getBuiltinModule('node:fs').writeSync(1, fast);
} else {
  let finished = false;
  // A backstop for bugs: if the event loop empties before run() settles, do not exit 0 as if it had worked.
  process.on('exit', () => {
    if (finished) return;
    process.stderr.write('energy: error: internal error: the command stopped before finishing\n');
    process.exitCode = 1;
  });
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // `energy order list --all --json | head` closes the pipe early: that is not a failure.
    finished = true;
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`energy: error: cannot write to standard output: ${error.message}\n`);
    process.exit(1);
  });
  import('./main.js')
    .then(({ run }) =>
      run(args, {
        stdout: process.stdout,
        stderr: process.stderr,
        // A getter: creating process.stdin costs ~5 ms (a stream), and only prompts and piped secrets read it.
        get stdin() {
          return process.stdin;
        },
        env: process.env,
      }),
    )
    .then(
      (code) => {
        finished = true;
        process.exitCode = code;
      },
      (error: unknown) => {
        finished = true;
        process.stderr.write(`energy: error: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
      },
    );
}
