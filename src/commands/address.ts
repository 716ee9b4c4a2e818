/** `energy address <address>`: what the address has on chain now, read from the TRON node. */
import { Argument, Command } from 'commander';
import { CliError } from '../domain/errors.js';
import { addressNotes, addressRows } from '../output/tron-views.js';
import { addressState } from '../tron/address-state.js';
import { askContractAccount, isKnownContract } from '../tron/receiver.js';
import type { TronNode } from '../tron/tron-node.js';
import { tronAddress } from './arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface AddressCommandOptions extends Pick<CommandServices, 'printer'> {
  address: string;
  tronNode: () => Promise<TronNode>;
}

export function addressCommand(
  ctx: Context,
  run: (options: AddressCommandOptions) => Promise<void> = addressRun,
): Command {
  return new Command('address')
    .description(
      'show an address on chain: activated or not, a contract or not, energy available / limit / used, bandwidth (TRON node)',
    )
    .addArgument(new Argument('<address>', 'TRON address').argParser(tronAddress))
    .action((address: string) => run({ address, tronNode: () => ctx.tronNode(), ...ctx.services() }));
}

export async function addressRun(opts: AddressCommandOptions): Promise<void> {
  const { printer, address } = opts;
  const node = await opts.tronNode();
  // getaccountresource answers {} for an account that does not exist; for one that does, getaccount
  // says whether it is a contract (no rental can reach one). USDT's is known without asking.
  const resource = await node.getAccountResource(address);
  const contract =
    isKnownContract(address) || resource.empty ? isKnownContract(address) : await askContractAccount(node, address);
  const unknown = contract instanceof CliError;
  const state = { ...addressState(address, resource), contract: unknown ? null : contract };
  if (unknown) printer.note(`energy: could not check whether ${address} is a contract account (${contract.message})`);
  if (printer.jsonMode) return printer.json(state);
  await printer.keyValue(addressRows(state));
  for (const line of addressNotes(state)) printer.note(line);
}
