/** `energy time`: the server's clock and the local clock's skew against it. */
import { Command } from 'commander';
import { clockRows } from '../output/views.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export type TimeCommandOptions = Pick<CommandServices, 'client' | 'printer'>;

export function timeCommand(ctx: Context, run: (options: TimeCommandOptions) => Promise<void> = timeRun): Command {
  return new Command('time')
    .description("show the server clock and the local clock's skew against it")
    .action(() => run(ctx.services()));
}

/** The command's work, also run without commander by the light bundle (app/light-main.ts). */
export async function timeRun(opts: TimeCommandOptions): Promise<void> {
  const { printer } = opts;
  // Also remembers (or forgets) the offset, so that the next signed request uses the server's clock.
  const check = await (await opts.client()).checkClock();
  if (!printer.jsonMode) return printer.keyValue(clockRows(check));
  const { unix_time, local_unix_time, skew_seconds } = check;
  await printer.json({ unix_time, local_unix_time, skew_seconds });
}
