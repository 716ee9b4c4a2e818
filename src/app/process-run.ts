/**
 * A command line run as this process: the real streams, environment and exit status, signals that abort the
 * run instead of killing it, and a backstop for a run that stops before it settles. Both bundles carry it
 * (light-main.ts, main.ts), so that V8's cached code of the bundle covers it: the entry (cli.ts), which Node
 * compiles at every start, keeps only the fast path and the loader.
 */
import { ExitCode } from '../domain/errors.js';
import { InterruptedError, SIGNAL_EXIT_CODES } from '../domain/cli-errors.js';
import type { Terminal } from '../output/terminal.js';
import { abortsWithInterruptedErrors } from './failure.js';
import { jsonRun, lastResortLine, outputError, OUTPUT_FAILED } from './last-resort.js';

/** A program's run (main.ts, light-main.ts). */
export type ProgramRun = (args: readonly string[], terminal: Terminal) => Promise<number>;

/** Runs `args` with `run` as this process: sets process.exitCode, or exits. */
export function runProcess(args: readonly string[], run: ProgramRun): void {
  const json = jsonRun(args);
  /** Set once the exit status is decided: the backstop below must not turn a decided exit into "internal error". */
  let finished = false;
  let stdinUsed = false;
  const exit = (code: number): never => {
    finished = true;
    return process.exit(code);
  };
  // A backstop for bugs: if the event loop empties before run() settles, do not exit 0 as if it had worked.
  process.on('exit', () => {
    if (finished) return;
    process.stderr.write(
      lastResortLine(json, 'internal error: the command stopped before finishing', ExitCode.internal),
    );
    process.exitCode = ExitCode.internal;
  });
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // `energy order list --all --json | head` closes the pipe early: that is not a failure.
    if (error.code === 'EPIPE') exit(typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok);
    process.stderr.write(outputError(json, error));
    exit(OUTPUT_FAILED);
  });
  closeInspectorSignal(json);
  const terminal: Terminal = {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: creating process.stdin costs ~5 ms (a stream), and only prompts and piped secrets read it.
    get stdin() {
      stdinUsed = true;
      return process.stdin;
    },
    env: process.env,
    program: process.argv[1],
    interrupt: abortOnSignals(json, exit),
    exit,
  };
  run(args, terminal).then(
    (code) => {
      finished = true;
      process.exitCode = code;
      // A terminal's stdin left open after a prompt would keep the process alive until the 5 s backstop.
      if (stdinUsed) (process.stdin as { unref?: () => void }).unref?.();
      exitWhenIdle();
    },
    (error: unknown) => {
      finished = true;
      const message = `internal error: ${error instanceof Error ? error.message : String(error)}`;
      process.stderr.write(lastResortLine(json, message, ExitCode.internal));
      process.exitCode = ExitCode.internal;
      exitWhenIdle();
    },
  );
}

/**
 * Once the run has settled, the process ends as soon as its event loop is empty: every write to stdout and
 * stderr done (a pipe's pending write keeps the loop busy, so 'beforeExit' comes after it), every child and
 * socket closed. It ends through process.exit(), which emits 'exit' as usual (the code cache's write, the
 * backstop) but skips Node's teardown of the environment and of V8's heap, which grows with what the run loaded
 * and which nobody waits for: `balance --json` 1.215x -> 1.195x the bare signed GET's CPU on Node 20,
 * 1.191x -> 1.152x on Node 22 (bench/RESULTS.md, issue 48).
 */
function exitWhenIdle(): void {
  process.once('beforeExit', () => process.exit());
}

/**
 * SIGUSR1 would open Node's inspector on 127.0.0.1:9229, and any local user could then attach a debugger to a
 * process holding the API secret. A listener of our own takes the signal instead (Node 20 has no switch for
 * it); Node 22.14+ also has `--disable-sigusr1`, which the image's ENTRYPOINT passes (docs/service.md). The
 * signal is said and otherwise ignored: it is often sent to "reopen logs", which this tool never needs.
 */
function closeInspectorSignal(json: boolean): void {
  process.on('SIGUSR1', () => {
    process.stderr.write(lastResortLine(json, 'SIGUSR1 ignored: energy never opens the Node.js inspector', undefined));
  });
}

/**
 * SIGINT, SIGTERM and SIGHUP abort the run's signal (its reason: an InterruptedError) instead of killing the
 * process: requests in flight end at once, and the command says what they were (an order's
 * client_request_id, a listing's cursor) before exiting 128 + the signal's number, as a shell would report.
 * A second signal, or a command that does not end within 5 s, exits at once.
 */
function abortOnSignals(json: boolean, exit: (code: number) => never): AbortSignal {
  const controller = new AbortController();
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(name, () => {
      // A forced exit is the signal's own status, not a command that stopped by mistake (it was exit 1).
      const exitNow = () => {
        process.stderr.write(
          lastResortLine(json, `${name}: stopping now, without waiting for the command to finish`, undefined),
        );
        exit(SIGNAL_EXIT_CODES[name]);
      };
      if (controller.signal.aborted) exitNow();
      controller.abort(new InterruptedError(name));
      setTimeout(exitNow, 5000).unref();
    });
  }
  return abortsWithInterruptedErrors(controller.signal);
}
