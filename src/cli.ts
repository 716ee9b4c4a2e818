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
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // `energy order list --all --json | head` closes the pipe early: that is not a failure.
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  void import('./main.js').then(async ({ run }) => {
    process.exitCode = await run(args, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
  });
}
