/** The process entry: real streams and environment, exit status, and a quiet end when a pipe closes early. */
import { run } from './main.js';

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  // `energy order list --all --json | head` closes the pipe early: that is not a failure.
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
