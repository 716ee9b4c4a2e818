/** The root command: global options and the command groups. Nothing here does I/O. */
import { Command, Option } from 'commander';
import { retryCount, seconds } from './commands/arguments.js';
import { balanceCommand } from './commands/balance.js';
import { completionCommand } from './commands/completion.js';
import { configCommand } from './commands/config.js';
import type { Context, GlobalOptions } from './commands/context.js';
import { optionsCommand } from './commands/options.js';
import { orderCommand } from './commands/order.js';
import { quoteCommand } from './commands/quote.js';
import { sandboxCommand } from './commands/sandbox.js';
import { timeCommand } from './commands/time.js';

/** Columns of help text: fixed, like git's, so that help reads the same everywhere. */
export const HELP_WIDTH = 80;

export function buildProgram(ctx: Context, version: string): Command {
  const program = new Command('energy')
    .description('Rent TRON energy through the Energy API v1')
    .version(version, '-V, --version')
    .option('--profile <name>', 'config profile (env ENERGY_PROFILE; default "default")')
    .option('--base-url <url>', 'API base URL (env ENERGY_BASE_URL)')
    .option('--json', 'print one JSON document on stdout')
    .option('--verbose', 'print each request and response line on stderr (credentials redacted)')
    .addOption(new Option('--timeout <seconds>', 'time allowed for each request (default 30)').argParser(seconds))
    .addOption(new Option('--retries <n>', 'retries after a failed attempt (default 3)').argParser(retryCount))
    .addHelpText('after', '\nCredentials come from the profile or ENERGY_API_KEY / ENERGY_API_SECRET, never from the command line.')
    .showSuggestionAfterError()
    .hook('preAction', (_root, action) => {
      ctx.globals = action.optsWithGlobals<GlobalOptions>();
    });
  for (const command of [timeCommand, balanceCommand, optionsCommand, quoteCommand, orderCommand, configCommand, sandboxCommand, completionCommand]) {
    program.addCommand(command(ctx));
  }
  applyToAll(program, (command) => {
    // main.ts decides the exit code and prints errors in one format (text, or JSON with --json).
    // Help wraps at a fixed width, on a terminal as in a pipe, so that the fast path's copy is exact.
    command.exitOverride().configureOutput({ outputError: () => undefined, getOutHelpWidth: () => HELP_WIDTH, getErrHelpWidth: () => HELP_WIDTH });
  });
  return program;
}

function applyToAll(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const child of command.commands) applyToAll(child, apply);
}
