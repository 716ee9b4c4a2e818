/**
 * The light bundle's program (dist/bin/light.cjs): `balance` and `time` as light-run.ts recognises them,
 * run without commander (building and parsing its command tree was a fifth of what `balance --json` spent
 * beyond one signed request) and failing exactly as the whole program does (failure.ts). Any other command
 * line is the whole program's (main.ts), though the entry sends none here.
 */
import { balanceRun } from '../commands/balance.js';
import { Context } from '../commands/context.js';
import { timeRun } from '../commands/time.js';
import { ExitCode } from '../domain/errors.js';
import type { Terminal } from '../output/terminal.js';
import { errorReport, reportFailure, withInterruptedErrors } from './failure.js';
import { lightRun } from './light-run.js';
import { runProcess } from './process-run.js';

/** The command line run as this process (the entry, cli.ts, calls it). */
export const start = (args: readonly string[]): void => runProcess(args, run);

export async function run(args: readonly string[], terminal: Terminal): Promise<number> {
  const light = lightRun(args);
  if (light === undefined) return (await import('./main.js')).run(args, terminal);
  const ctx = new Context(withInterruptedErrors(terminal));
  // What commander's preAction hook would have set (program.ts): the options given, and only those.
  ctx.globals = light.globals;
  try {
    await (light.command === 'balance' ? balanceRun : timeRun)(ctx.services());
    return ExitCode.ok;
  } catch (error) {
    return reportFailure(error, errorReport(error), ctx, terminal, args);
  } finally {
    await ctx.close();
  }
}
