import { Command } from 'commander';
import { quoteRows } from '../output/views.js';
import { rentalArguments } from './arguments.js';
import type { Context } from './context.js';

export function quoteCommand(ctx: Context): Command {
  return rentalArguments(new Command('quote'))
    .description('show the price of renting energy for an address')
    .action(async (address: string, options: { energy: number; hours: number }) => {
      const quote = await (
        await ctx.client()
      ).quote({ address, energy: options.energy, duration_hours: options.hours });
      await (ctx.printer.jsonMode ? ctx.printer.json(quote) : ctx.printer.keyValue(quoteRows(quote)));
    });
}
