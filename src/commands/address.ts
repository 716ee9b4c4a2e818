/** `energy address <address>`: what the address has on chain now, read from the TRON node. */
import { Argument, Command } from 'commander';
import { addressRows } from '../output/tron-views.js';
import { addressState } from '../tron/address-state.js';
import { tronAddress } from './arguments.js';
import type { Context } from './context.js';

export function addressCommand(ctx: Context): Command {
  return new Command('address')
    .description('show an address on chain: activated or not, energy available / limit / used, bandwidth (TRON node)')
    .addArgument(new Argument('<address>', 'TRON address').argParser(tronAddress))
    .action(async (address: string) => {
      const node = await ctx.tronNode();
      // One request: getaccountresource answers {} for an account that does not exist.
      const state = addressState(address, await node.getAccountResource(address));
      if (ctx.printer.jsonMode) await ctx.printer.json(state);
      else {
        await ctx.printer.keyValue(addressRows(state));
        if (!state.activated)
          ctx.printer.note(
            'energy: the address is not activated: a rental to it pays the activation (see `energy quote`)',
          );
      }
    });
}
