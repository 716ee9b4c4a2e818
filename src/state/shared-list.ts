/**
 * The account's order list, read by one host of a fleet an interval and shared through the state store, so
 * that the other services sharing the database read what they need of it there instead of from the API. A
 * lease (the store's clock) says which host reads; its reading, written in one statement, serves every host
 * for at most one interval (the host's own `--every`), and is refused past it. The orders are kept as the API
 * gave them (JSON, checked again where they are used), keyed by the API key's one-way id: never a secret. The
 * reader's `GET /v1/energy/options` answer goes with its reading (the offer), so that the other hosts read the
 * offer there too, for as long as they use the reading.
 */

/** An order of the list, as much of it as the store files it by; the whole object is kept. */
export interface ListedOrder {
  id: string;
  address: string;
}

/** How a reading of the list ended (ordering/find-recent.ts RecentScan, the parts a decision uses). */
export interface ListReach {
  /** The oldest moment (server clock, ms) the reading was to reach. */
  reachMs: number;
  /** It reached `reachMs` or the end of the list; false: it stopped at the scan's bound (1,000 orders). */
  complete: boolean;
  /** The oldest created_at read, or null for an empty list. */
  oldestReadMs: number | null;
  /** created_at rose down the list. */
  outOfOrder: boolean;
}

/** A host's reading, younger than its interval: the orders of the addresses asked for, newest first. */
export interface ListSnapshot extends ListReach {
  orders: unknown[];
  /** Its age on the store's clock, in ms. */
  ageMs: number;
  /** The reader's offer (`GET /v1/energy/options`, as JSON: checked again where used); null or absent: none. */
  offer?: unknown;
}

/**
 * What `take` answers: `read`: this host holds the lease and reads the list (then `publish`es it, or `release`s
 * the lease); `snapshot`: another host's reading, young enough; `wait`: another host is reading it now;
 * `none`: the store shares no list (the folder): each host reads its own, as alone.
 */
export type ListTurn =
  { kind: 'read'; token: string } | { kind: 'snapshot'; snapshot: ListSnapshot } | { kind: 'wait' } | { kind: 'none' };

export interface SharedOrderList {
  /**
   * One statement: the lease when the last reading is `everyMs` old or more (or there is none) and no lease
   * is held, else the last reading's orders of `addresses` when it is younger than `everyMs`.
   */
  take(addresses: readonly string[], everyMs: number, leaseMs: number): Promise<ListTurn>;
  /**
   * One statement: the reading (and the offer read with it, or null) replaces the last one, if the lease is still
   * this host's; false if not.
   */
  publish(token: string, orders: readonly ListedOrder[], reach: ListReach, offer: unknown): Promise<boolean>;
  /** The lease given back (the reading failed), so that another host reads without waiting for its end. */
  release(token: string): Promise<void>;
}

/**
 * The store's shared list for the journal's API key, opened at its first use (a service may start before its
 * database answers): a store that shares none (the folder) answers `none`; one that cannot be opened fails
 * `take` (the host then reads the list itself).
 */
export function openedLater(
  state: () => Promise<{ sharedList?(keyId: string): SharedOrderList | undefined }>,
  journal: () => Promise<{ scope: { keyId: string } }>,
): SharedOrderList {
  const open = async () => (await state()).sharedList?.((await journal()).scope.keyId);
  return {
    take: async (addresses, everyMs, leaseMs) => (await open())?.take(addresses, everyMs, leaseMs) ?? { kind: 'none' },
    publish: async (token, orders, reach, offer) => (await open())?.publish(token, orders, reach, offer) ?? false,
    release: async (token) => (await open())?.release(token),
  };
}
