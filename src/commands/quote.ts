import { Command } from 'commander';
import { TRON_SETTING_NAMES } from '../config/names.js';
import { quoteRows } from '../output/views.js';
import { refuseContractReceiver } from '../tron/receiver.js';
import { rentalArguments } from './arguments.js';
import type { Context } from './context.js';

export function quoteCommand(ctx: Context): Command {
  return rentalArguments(new Command('quote'))
    .description('show the price of renting energy for an address')
    .action(async (address: string, options: { energy: number; hours: number }) => {
      const client = await ctx.client();
      // No rental can reach a contract: refused before the quote (the node is asked only when one is configured).
      await refuseContractReceiver(
        address,
        async () =>
          (await ctx.settings(TRON_SETTING_NAMES)).values['tron-node'].source === 'default'
            ? undefined
            : ctx.tronNode(),
        (line) => ctx.printer.note(line),
      );
      // The options beside the quote (no time added): closed intake is worth saying, even when the quote fails.
      const [catalog, quoted] = await Promise.allSettled([
        client.options(),
        client.quote({ address, energy: options.energy, duration_hours: options.hours }),
      ]);
      if (catalog.status === 'fulfilled' && !catalog.value.intake_enabled) {
        const { INTAKE_DISABLED } = await import('../ordering/intake.js');
        ctx.printer.note(`energy: ${INTAKE_DISABLED}: an order now would be refused`);
      }
      if (quoted.status === 'rejected') throw quoted.reason;
      const quote = quoted.value;
      await (ctx.printer.jsonMode ? ctx.printer.json(quote) : ctx.printer.keyValue(quoteRows(quote)));
    });
}
