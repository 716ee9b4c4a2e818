/**
 * The first reading of `ensure`: one item per address with its target and what it has. With --energy the
 * target is given; with --transfers it is n times one transfer of the token simulated from that address, and
 * the item also says whether its bandwidth pays for the n transfers.
 */
import { randomBytes } from 'node:crypto';
import { TransferRevertedError } from '../domain/cli-errors.js';
import { encodeTronAddress } from '../domain/address.js';
import { addressState, TRC20_TRANSFER_BYTES, transactionsCovered, type AddressState } from '../tron/address-state.js';
import { estimateTransfer } from '../tron/estimate-transfer.js';
import type { AccountResource } from '../tron/tron-types.js';
import type { EnsureDeps, EnsureItem, EnsureOptions, TransfersTarget } from './ensure-types.js';
import { mapLimit } from '../domain/pool.js';
import { CHAIN_CONCURRENCY } from './read-chain.js';
import { failLocally, newItem, noteAbout } from './item.js';
import { isShort } from './shortfall.js';

/** A fresh random address: it holds none of any token, so a transfer to it takes a new storage slot. */
function noHolder(): string {
  return encodeTronAddress(Buffer.concat([Buffer.from([0x41]), randomBytes(20)]));
}

async function transfersItem(
  deps: EnsureDeps,
  transfers: TransfersTarget,
  to: string,
  address: string,
  resource: AccountResource,
): Promise<EnsureItem> {
  const state = addressState(address, resource);
  const entry: EnsureItem = {
    ...newItem(address, 0, state.energy_available),
    per_transfer: null,
    bandwidth_short: false,
  };
  const cannotSend = `${address} cannot send ${transfers.token}`;
  if (!state.activated) {
    return failLocally(entry, new TransferRevertedError(`${cannotSend}: it has no account on chain, so it holds none`));
  }
  try {
    const simulation = { from: address, to, token: transfers.token, amount: 1n };
    const { energyUsed } = await estimateTransfer(deps.node, simulation);
    entry.per_transfer = energyUsed;
    entry.target = energyUsed * transfers.count;
  } catch (error) {
    // A revert is this address's problem (it holds none of the token); anything else is the run's.
    if (!(error instanceof TransferRevertedError)) throw error;
    return failLocally(
      entry,
      new TransferRevertedError(
        `${cannotSend}: a transfer of 1 unit from it ${error.message.replace(/^the simulated transfer /, '')}; does it hold any?`,
      ),
    );
  }
  const covered = transactionsCovered(resource);
  if (covered < transfers.count) {
    entry.bandwidth_short = true;
    noteAbout(
      deps,
      `bandwidth ${address}`,
      `energy: ${address}: its bandwidth pays for ${covered} of ${transfers.count} transfers (about ${TRC20_TRANSFER_BYTES} bytes each); each of the others burns about 0.35 TRX for bandwidth (rented energy does not cover bandwidth)`,
    );
  }
  return entry;
}

/** The first reading: every item, the short ones, and what the chain said of each address. */
export interface Reading {
  items: EnsureItem[];
  short: EnsureItem[];
  chain: Map<string, AddressState>;
}

/**
 * Every address read once (`getaccountresource`), plus one simulation each with --transfers: the only node
 * read of an address that has enough, or whose shortfall turns out to be on its way (plan-ensure.ts).
 */
export async function readItems(deps: EnsureDeps, options: EnsureOptions): Promise<Reading> {
  const { transfers } = options;
  const to = transfers === undefined ? '' : (transfers.to ?? noHolder());
  const chain = new Map<string, AddressState>();
  const items = await mapLimit(options.addresses, CHAIN_CONCURRENCY, async (address) => {
    const resource = await deps.node.getAccountResource(address);
    chain.set(address, addressState(address, resource));
    if (transfers !== undefined) return transfersItem(deps, transfers, to, address, resource);
    return newItem(address, options.energy ?? 0, chain.get(address)!.energy_available);
  });
  const short: EnsureItem[] = [];
  for (const entry of items) {
    const available = entry.available ?? 0;
    if (entry.error !== null || available >= entry.target) continue;
    if (isShort(entry.target, available, options.toleranceBp)) short.push(entry);
    else entry.reason = 'within_tolerance';
  }
  return { items, short, chain };
}
