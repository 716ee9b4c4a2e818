/** `energy options`: the portion size, the largest order, the durations offered and whether intake is on. */
import { Command } from 'commander';
import { optionsRows } from '../output/views.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export type OptionsCommandOptions = Pick<CommandServices, 'client' | 'printer'>;

export function optionsCommand(
  ctx: Context,
  run: (options: OptionsCommandOptions) => Promise<void> = optionsRun,
): Command {
  return new Command('options')
    .description('show the portion size, max energy, allowed durations and whether intake is on')
    .action(() => run(ctx.services()));
}

export async function optionsRun(opts: OptionsCommandOptions): Promise<void> {
  const { printer } = opts;
  const options = await (await opts.client()).options();
  await (printer.jsonMode ? printer.json(options) : printer.keyValue(optionsRows(options)));
}
