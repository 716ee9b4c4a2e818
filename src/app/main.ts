/**
 * run(argv): builds the program, runs one command, and is the one place that turns an error into a
 * message and an exit code.
 */
import { CommanderError, type Command } from 'commander';
import { Context } from '../commands/context.js';
import { ExitCode } from '../domain/errors.js';
import type { Terminal } from '../output/terminal.js';
import { errorReport, reportFailure, withInterruptedErrors, type FailureReport } from './failure.js';
import { buildProgram, helpArguments, invokedPath, outputJsonArguments } from './program.js';
import { packageVersion } from './version.js';
import { runProcess } from './process-run.js';

/** The command line run as this process (the entry, cli.ts, calls it). */
export const start = (args: readonly string[]): void => runProcess(args, run);

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
    return reportFailure(error, report, ctx, terminal, argv);
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
function toReport(error: unknown, command: string): FailureReport | undefined {
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
  return errorReport(error);
}
