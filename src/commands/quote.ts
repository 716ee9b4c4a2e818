import { Command } from 'commander';
import { quoteRows } from '../output/views.js';
import { burnCost } from '../tron/burn-cost.js';
import { refuseContractReceiver } from '../tron/receiver.js';
import { rentalArguments } from './arguments.js';
import type { Context } from './context.js';

export function quoteCommand(ctx: Context): Command {
  return rentalArguments(new Command('quote'))
    .description('show the price of renting energy for an address')
    .action(async (address: string, options: { energy: number; hours: number }) => {
      const client = await ctx.client();
      const note = (line: string) => ctx.printer.note(line);
      // No rental can reach a contract: refused before the quote (the node is asked only when one is configured).
      await refuseContractReceiver(address, () => ctx.configuredTronNode(), note);
      const node = await ctx.configuredTronNode();
      // The options beside the quote (no time added): closed intake is worth saying, even when the quote fails;
      // and, where a TRON node is configured, what burning the same energy would cost instead.
      const [catalog, quoted, burn] = await Promise.allSettled([
        client.options(),
        client.quote({ address, energy: options.energy, duration_hours: options.hours }),
        node === undefined ? undefined : burnCost(node, options.energy, note),
      ]);
      if (catalog.status === 'fulfilled' && !catalog.value.intake_enabled) {
        const { INTAKE_DISABLED } = await import('../ordering/intake.js');
        ctx.printer.note(`energy: ${INTAKE_DISABLED}: an order now would be refused`);
      }
      if (quoted.status === 'rejected') throw quoted.reason;
      if (burn.status === 'rejected') throw burn.reason;
      const quote = burn.value === undefined ? quoted.value : { ...quoted.value, burn_trx: burn.value };
      await (ctx.printer.jsonMode ? ctx.printer.json(quote) : ctx.printer.keyValue(quoteRows(quote)));
    });
}
