/** `energy address <address>`: what the address has on chain now, read from the TRON node. */
import { Argument, Command } from 'commander';
import { CliError } from '../domain/errors.js';
import { addressRows } from '../output/tron-views.js';
import { addressState } from '../tron/address-state.js';
import { askContractAccount, isKnownContract } from '../tron/receiver.js';
import { tronAddress } from './arguments.js';
import type { Context } from './context.js';

export function addressCommand(ctx: Context): Command {
  return new Command('address')
    .description(
      'show an address on chain: activated or not, a contract or not, energy available / limit / used, bandwidth (TRON node)',
    )
    .addArgument(new Argument('<address>', 'TRON address').argParser(tronAddress))
    .action(async (address: string) => {
      const node = await ctx.tronNode();
      // getaccountresource answers {} for an account that does not exist; for one that does, getaccount
      // says whether it is a contract (no rental can reach one). USDT's is known without asking.
      const resource = await node.getAccountResource(address);
      const contract =
        isKnownContract(address) || resource.empty ? isKnownContract(address) : await askContractAccount(node, address);
      const unknown = contract instanceof CliError;
      const state = { ...addressState(address, resource), contract: unknown ? null : contract };
      if (unknown)
        ctx.printer.note(`energy: could not check whether ${address} is a contract account (${contract.message})`);
      if (ctx.printer.jsonMode) return ctx.printer.json(state);
      await ctx.printer.keyValue(addressRows(state));
      if (state.contract === true)
        ctx.printer.note(
          'energy: the address is a smart contract: TRON does not delegate energy to contract accounts, so no rental can reach it; rent for the address that sends the transactions',
        );
      else if (!state.activated)
        ctx.printer.note(
          'energy: the address is not activated: a rental to it pays the activation (see `energy quote`)',
        );
    });
}
