/**
 * The process entry, bundled as CommonJS for a fast start (scripts/bundle.mjs): answers the fast path,
 * or loads the program (an ES module) and runs it with the real streams, environment and exit status.
 */
import { fastPathOutput } from './fast-path.js';
import { inCharset, utf8Locale } from '../output/charset.js';
import { terminalJson } from '../domain/printable.js';
import { privateCacheDir, requireCached } from './code-cache.js';
import { lightCommand } from './light-run.js';

/** The program's bundle beside this entry (scripts/bundle.mjs defines it; unbundled, main.js is imported). */
declare const ENERGY_MAIN_BUNDLE: string | undefined;
/** balance and time alone, without commander (light-run.ts, light-main.ts). */
declare const ENERGY_LIGHT_BUNDLE: string | undefined;

const args = process.argv.slice(2);
const fast = fastPathOutput(args);
/** Exit status when standard output cannot be written (a full disk): the command may have done its work. */
const OUTPUT_FAILED = 7;
/** Set once the exit status is decided: the backstop below must not turn a decided exit into "internal error". */
let finished = false;
let stdinUsed = false;

/** As main.ts decides it before the options are parsed: `--json` anywhere before a `--`. */
const jsonRun = (args.includes('--') ? args.slice(0, args.indexOf('--')) : args).includes('--json');

/**
 * A line written here, outside the command (a bug, an unwritable stdout, a forced exit): with --json one
 * JSON object like every other stderr line, `{"error":{…}}` as error-report.ts writes them or `{"note":{…}}`.
 */
function lastResortLine(message: string, exitCode: number | undefined): string {
  if (jsonRun)
    return `${terminalJson(
      exitCode === undefined
        ? { note: { message } }
        : { error: { exit_code: exitCode, message, hint: null, problem: null } },
    )}\n`;
  return inCharset(`energy: ${exitCode === undefined ? '' : 'error: '}${message}\n`, utf8Locale(process.env));
}

function outputError(error: NodeJS.ErrnoException): string {
  const reason =
    error.code === 'ENOSPC'
      ? 'no space left on the device'
      : error.code === 'EIO'
        ? 'input/output error'
        : (error.code ?? error.message);
  return lastResortLine(`cannot write to standard output: ${reason}`, OUTPUT_FAILED);
}

if (fast !== undefined) {
  // A direct write: creating process.stdout would load Node's streams stack for a few lines.
  const fs = process.getBuiltinModule('node:fs');
  try {
    fs.writeSync(1, fast);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPIPE') {
      fs.writeSync(2, outputError(error as NodeJS.ErrnoException));
      process.exitCode = OUTPUT_FAILED;
    }
  }
} else {
  // A backstop for bugs: if the event loop empties before run() settles, do not exit 0 as if it had worked.
  process.on('exit', () => {
    if (finished) return;
    process.stderr.write(lastResortLine('internal error: the command stopped before finishing', 1));
    process.exitCode = 1;
  });
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // `energy order list --all --json | head` closes the pipe early: that is not a failure.
    finished = true;
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(outputError(error));
    process.exit(OUTPUT_FAILED);
  });
  closeInspectorSignal();
  const interrupt = abortOnSignals();
  loadMain()
    .then(({ run }) =>
      run(args, {
        stdout: process.stdout,
        stderr: process.stderr,
        // A getter: creating process.stdin costs ~5 ms (a stream), and only prompts and piped secrets read it.
        get stdin() {
          stdinUsed = true;
          return process.stdin;
        },
        env: process.env,
        program: process.argv[1],
        interrupt,
        exit: (code) => {
          finished = true;
          process.exit(code);
        },
      }),
    )
    .then(
      (code) => {
        finished = true;
        process.exitCode = code;
        // A terminal's stdin left open after a prompt would keep the process alive until the 5 s backstop.
        if (stdinUsed) (process.stdin as { unref?: () => void }).unref?.();
      },
      (error: unknown) => {
        finished = true;
        process.stderr.write(
          lastResortLine(`internal error: ${error instanceof Error ? error.message : String(error)}`, 1),
        );
        process.exitCode = 1;
      },
    );
}

/** The program: from the bundle with its compiled code cached (code-cache.ts), or imported where unbundled. */
function loadMain(): Promise<typeof import('./main.js')> {
  if (typeof ENERGY_MAIN_BUNDLE !== 'string') return import('./main.js');
  const light = typeof ENERGY_LIGHT_BUNDLE === 'string' && lightCommand(args) !== undefined;
  const file = process.getBuiltinModule('node:path').join(__dirname, light ? ENERGY_LIGHT_BUNDLE : ENERGY_MAIN_BUNDLE);
  return new Promise((resolve) =>
    resolve(requireCached(file, privateCacheDir(process.env)) as typeof import('./main.js')),
  );
}

/**
 * SIGUSR1 would open Node's inspector on 127.0.0.1:9229, and any local user could then attach a debugger to a
 * process holding the API secret. A listener of our own takes the signal instead (Node 20 has no switch for
 * it); Node 22.14+ also has `--disable-sigusr1`, which the image's ENTRYPOINT passes (docs/service.md). The
 * signal is said and otherwise ignored: it is often sent to "reopen logs", which this tool never needs.
 */
function closeInspectorSignal(): void {
  process.on('SIGUSR1', () => {
    process.stderr.write(lastResortLine('SIGUSR1 ignored: energy never opens the Node.js inspector', undefined));
  });
}

/**
 * SIGINT, SIGTERM and SIGHUP abort the run's signal (its reason: the signal's name) instead of killing the
 * process: requests in flight end at once, and the command says what they were (an order's
 * client_request_id, a listing's cursor) before exiting 128 + the signal's number, as a shell would report.
 * A second signal, or a command that does not end within 5 s, exits at once.
 */
function abortOnSignals(): AbortSignal {
  const controller = new AbortController();
  // The same numbers on every POSIX system; spelt out rather than read from node:os, which would load it.
  const numbers = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(name, () => {
      const code = 128 + numbers[name];
      // A forced exit is the signal's own status, not a command that stopped by mistake (it was exit 1).
      const exitNow = () => {
        finished = true;
        process.stderr.write(
          lastResortLine(`${name}: stopping now, without waiting for the command to finish`, undefined),
        );
        process.exit(code);
      };
      if (controller.signal.aborted) exitNow();
      controller.abort(name);
      setTimeout(exitNow, 5000).unref();
    });
  }
  return controller.signal;
}
