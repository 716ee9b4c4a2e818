/**
 * run(argv): builds the program, runs one command, and is the one place that turns an error into a
 * message and an exit code.
 */
import { CommanderError, type Command } from 'commander';
import { scrubSecrets, scrubSecretsDeep } from '../client/redact.js';
import { Context } from '../commands/context.js';
import { withContext } from '../commands/shell-words.js';
import { ApiError, AuthError, CliError, ExitCode } from '../domain/errors.js';
import { InterruptedError, SIGNAL_EXIT_CODES, type InterruptSignal } from '../domain/cli-errors.js';
import { writeErrorReport, type ErrorReport } from '../output/error-report.js';
import type { Terminal } from '../output/terminal.js';
import { buildProgram, helpArguments, invokedPath, outputJsonArguments } from './program.js';
import { packageVersion } from './version.js';

export async function run(given: readonly string[], terminal: Terminal): Promise<number> {
  const ctx = new Context(withInterruptedErrors(terminal));
  const argv = outputJsonArguments(given);
  let program: Command | undefined;
  try {
    if (versionAsJson(argv)) {
      ctx.globals.json = true;
      await ctx.printer.json({ version: packageVersion() });
      return ExitCode.ok;
    }
    program = buildProgram(ctx, packageVersion(), argv);
    await program.parseAsync(helpArguments(program, argv), { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    // A usage error points at the help of the command it is about: `energy order create --help`.
    const report = toReport(error, program === undefined ? 'energy' : invokedPath(program, argv));
    if (report === undefined) return ExitCode.ok;
    const secrets = ctx.knownCredentials();
    // Only for the API's own 401: a missing or unusable credential, or the TRON node's 401, is not a mismatch.
    const note =
      error instanceof AuthError && error.status === 401 ? ctx.settingsCache.credentialSourcesNote() : undefined;
    const hintText = report.hint ?? ctx.settingsCache.unreachableHint(error);
    const given = hintText === undefined ? undefined : withContext(hintText, ctx.globals);
    const hint = note === undefined ? given : `${note}; ${given ?? ''}`;
    const safe = {
      ...report,
      message: scrubSecrets(report.message, secrets),
      hint: hint && scrubSecrets(hint, secrets),
      problem: scrubSecretsDeep(
        error instanceof ApiError || error instanceof AuthError ? error.problem : undefined,
        secrets,
      ),
    };
    // Before the options are parsed (a usage error), the word on the command line is all there is to go by.
    const json = ctx.globals.json === true || (ctx.globals.json === undefined && argv.includes('--json'));
    if (report.silent !== true) writeErrorReport(terminal, safe, { json, verbose: ctx.globals.verbose === true });
    return report.exitCode;
  } finally {
    await ctx.close();
  }
}

/**
 * `energy --json --version` (or `-V`, anywhere before a `--`, as commander takes it): the version as one JSON
 * document, `{"version":"0.1.0"}`, like every other --json output; the fast path (fast-path.ts) answers the
 * two words alone the same way.
 */
function versionAsJson(argv: readonly string[]): boolean {
  const words = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  return words.includes('--json') && (words.includes('--version') || words.includes('-V'));
}

/** Commander quotes the value it refused in full: cut a long one (escaping happens when it is written). */
function shortenEcho(message: string): string {
  return message.replace(
    /^((?:option '[^']*' argument|command-argument value) ')([\s\S]*?)(' is invalid)/,
    (_all, head: string, value: string, tail: string) =>
      `${head}${value.length > 60 ? `${value.slice(0, 59)}…` : value}${tail}`,
  );
}

/**
 * Commander's "option '--energy <n>' argument '0' is invalid. must be…" said as we say things:
 * `--energy 0: must be…`, and `<address> "x": …` for an argument.
 */
function ownWords(message: string): string {
  return message
    .replace(
      /^option '(-[^' ,]+, )?(--?[^' ]+)[^']*' argument '([\s\S]*?)' is invalid\. /,
      (_all, _short, flag: string, value: string) => `${flag} "${value}": `,
    )
    .replace(
      /^command-argument value '([\s\S]*?)' is invalid for argument '([^']*)'\. /,
      (_all, value: string, name: string) => `<${name}> "${value}": `,
    );
}

/** undefined for the commander "errors" that are really help or version output. */
function toReport(error: unknown, command: string): (ErrorReport & { silent?: boolean }) | undefined {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version')
      return undefined;
    // `energy` alone (or a group alone) has just printed its help: a usage error with nothing more to say.
    if (error.code === 'commander.help') return { message: '', exitCode: ExitCode.usage, silent: true };
    return {
      // One line: commander puts its "(Did you mean …?)" suggestion on a line of its own.
      message: ownWords(shortenEcho(error.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' '))),
      exitCode: ExitCode.usage,
      hint: `see \`${command} --help\``,
    };
  }
  if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode, hint: error.hint };
  const message = error instanceof Error ? error.message : String(error);
  return {
    message: `internal error: ${message}`,
    exitCode: ExitCode.internal,
    hint: 'this is a bug in energy: please report it with the output of --verbose',
    detail: error instanceof Error ? error.stack : undefined,
  };
}

/**
 * The terminal, its interrupt signal aborting with an InterruptedError. Its properties are copied as
 * descriptors, not spread: the entry's stdin is a getter, and creating process.stdin costs ~5 ms.
 */
function withInterruptedErrors(terminal: Terminal): Terminal {
  if (terminal.interrupt === undefined) return terminal;
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(terminal)) as Terminal;
  copy.interrupt = asInterruptedError(terminal.interrupt);
  return copy;
}

/** The same signal, aborted with an InterruptedError: what a request in flight rejects with. */
function asInterruptedError(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const forward = () => {
    const name = String(signal.reason);
    controller.abort(name in SIGNAL_EXIT_CODES ? new InterruptedError(name as InterruptSignal) : signal.reason);
  };
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  return controller.signal;
}
