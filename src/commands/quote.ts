/** `energy quote <address> --energy <n> --hours <h>`: the price of a rental (and of burning, with a node). */
import { Command } from 'commander';
import { quoteRows } from '../output/views.js';
import { burnCost } from '../tron/burn-cost.js';
import { refuseContractReceiver } from '../tron/receiver.js';
import type { TronNode } from '../tron/tron-node.js';
import { rentalArguments } from './arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface QuoteCommandOptions extends Pick<CommandServices, 'client' | 'printer'> {
  address: string;
  energy: number;
  hours: number;
  /** The TRON node when one is configured, else undefined (the default public node is never asked unasked). */
  configuredNode: () => Promise<TronNode | undefined>;
}

export function quoteCommand(ctx: Context, run: (options: QuoteCommandOptions) => Promise<void> = quoteRun): Command {
  return rentalArguments(new Command('quote'))
    .description('show the price of renting energy for an address')
    .action((address: string, parsed: { energy: number; hours: number }) =>
      run({
        address,
        energy: parsed.energy,
        hours: parsed.hours,
        configuredNode: () => ctx.configuredTronNode(),
        ...ctx.services(),
      }),
    );
}

export async function quoteRun(opts: QuoteCommandOptions): Promise<void> {
  const { printer, address } = opts;
  const client = await opts.client();
  const note = (line: string) => printer.note(line);
  // No rental can reach a contract: refused before the quote (the node is asked only when one is configured).
  await refuseContractReceiver(address, opts.configuredNode, note);
  const node = await opts.configuredNode();
  // The options beside the quote (no time added): closed intake is worth saying, even when the quote fails;
  // and, where a TRON node is configured, what burning the same energy would cost instead.
  const [catalog, quoted, burn] = await Promise.allSettled([
    client.options(),
    client.quote({ address, energy: opts.energy, duration_hours: opts.hours }),
    node === undefined ? undefined : burnCost(node, opts.energy, note),
  ]);
  if (catalog.status === 'fulfilled' && !catalog.value.intake_enabled) {
    const { INTAKE_DISABLED } = await import('../ordering/intake.js');
    printer.note(`energy: ${INTAKE_DISABLED}: an order now would be refused`);
  }
  if (quoted.status === 'rejected') throw quoted.reason;
  if (burn.status === 'rejected') throw burn.reason;
  const quote = burn.value === undefined ? quoted.value : { ...quoted.value, burn_trx: burn.value };
  await (printer.jsonMode ? printer.json(quote) : printer.keyValue(quoteRows(quote)));
}
