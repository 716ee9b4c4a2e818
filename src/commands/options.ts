import { Command } from 'commander';
import { optionsRows } from '../output/views.js';
import type { Context } from './context.js';

export function optionsCommand(ctx: Context): Command {
  return new Command('options')
    .description('show the portion size, max energy, allowed durations and whether intake is on')
    .action(async () => {
      const options = await (await ctx.client()).options();
      await (ctx.printer.jsonMode ? ctx.printer.json(options) : ctx.printer.keyValue(optionsRows(options)));
    });
}
