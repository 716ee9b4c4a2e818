/**
 * Reads many addresses from the TRON node, a bounded number at a time over its keep-alive connections: one
 * `getaccountresource` each (energy, bandwidth, and `{}` for an account that does not exist), and
 * `getaccount` only for short addresses that exist on chain (a contract account cannot receive energy; `{}`
 * from getaccountresource is no account, so no contract), once per process for an account that is not a
 * contract: it can never become one, so a service asks once; with a shared state store, once for the fleet.
 */
import { addressState, type AddressState } from '../tron/address-state.js';
import { contractReceiverError } from '../tron/receiver.js';
import type { AccountResource } from '../tron/tron-types.js';
import { mapLimit } from '../domain/pool.js';
import type { EnsureDeps, EnsureItem, EnsureNode } from './ensure-types.js';
import { failLocally } from './item.js';

/** Addresses read at once: as many requests in flight as when each address took two. */
export const CHAIN_CONCURRENCY = 16;

export async function readResources(
  node: Pick<EnsureNode, 'getAccountResource'>,
  addresses: readonly string[],
): Promise<Map<string, AccountResource>> {
  const resources = await mapLimit(addresses, CHAIN_CONCURRENCY, (address) => node.getAccountResource(address));
  return new Map(addresses.map((address, index) => [address, resources[index]!]));
}

export async function readAddresses(
  node: Pick<EnsureNode, 'getAccountResource'>,
  addresses: readonly string[],
): Promise<Map<string, AddressState>> {
  const resources = await readResources(node, addresses);
  return new Map(addresses.map((address) => [address, addressState(address, resources.get(address)!)]));
}

/**
 * The short items that can receive energy. A contract account cannot (java-tron refuses to delegate to one),
 * so its item fails with exit 2 here, before anything is asked of the API.
 */
export async function receivers(
  deps: EnsureDeps,
  short: readonly EnsureItem[],
  chain: ReadonlyMap<string, AddressState>,
): Promise<EnsureItem[]> {
  let known = accountsKnown.get(deps.node);
  if (known === undefined) accountsKnown.set(deps.node, (known = new Set()));
  // No account on chain (`{}`) is no contract: only an existing account is asked whether it is one.
  let asked = short.filter((entry) => chain.get(entry.address)?.activated !== false && !known.has(entry.address));
  // What another host of the fleet learnt is not asked again (the store unreachable: the node is asked).
  const fleet = deps.knownAccounts;
  if (fleet !== undefined && asked.length > 0) {
    const learnt = await fleet
      .known(
        deps.node.url,
        asked.map((entry) => entry.address),
      )
      .catch(() => new Set<string>());
    for (const address of learnt) known.add(address);
    asked = asked.filter((entry) => !known.has(entry.address));
  }
  const accounts = await mapLimit(asked, CHAIN_CONCURRENCY, (entry) => deps.node.getAccount(entry.address));
  const contracts = new Set<string>();
  const accountsLearnt: string[] = [];
  asked.forEach((entry, index) => {
    const account = accounts[index]!;
    if (account.contract) contracts.add(entry.address);
    else if (account.activated) {
      known.add(entry.address);
      accountsLearnt.push(entry.address);
    }
  });
  if (fleet !== undefined && accountsLearnt.length > 0)
    await fleet.add(deps.node.url, accountsLearnt).catch(() => undefined);
  return short.filter((entry) => {
    if (!contracts.has(entry.address)) return true;
    failLocally(entry, contractReceiverError(entry.address));
    return false;
  });
}

/** Per node client (a service keeps one), the addresses known to be activated accounts that are not contracts. */
const accountsKnown = new WeakMap<object, Set<string>>();
