/**
 * Which addresses a run decides (issue 39). With a shared state store (PostgreSQL) a run claims them first, as
 * graphile-worker and pg-boss take jobs: a short transaction takes the rows no other host holds (`FOR UPDATE
 * SKIP LOCKED`), writes a lease with an expiry and commits; the chain is read and orders are placed outside
 * any transaction; the claims are let go in another short one. An address another host holds (its lease not
 * expired), or, for a service, one another host decided less than an interval ago, is skipped: its item
 * says `claimed_elsewhere`, not a failure. The local folder claims every address and keeps its machine-wide
 * lock (ensure-lock.ts) around the decision instead.
 */

/** Who holds an address this run skips: a host name and, on the store's clock, until when. */
export interface ClaimHolder {
  host: string;
  /** ISO time: when its lease expires, or (a service's address decided elsewhere) when it is next due. */
  until: string;
}

export interface AddressClaim {
  /** The addresses this run decides, in the order asked. */
  readonly mine: readonly string[];
  /**
   * Every other address: another host holds it or has just decided it (who, and until when), or a service
   * left it to the fleet's other services this cycle (undefined): skipped, never waited on.
   */
  readonly elsewhere: ReadonlyMap<string, ClaimHolder | undefined>;
  /**
   * Runs `work` (counting what is in flight, quoting, ordering) for the addresses of `addresses` this run
   * still holds: their leases renewed in one short statement (an address taken over while this host was
   * frozen is dropped), or, in the folder, alone among this machine's runs. No transaction is held meanwhile.
   */
  decide<T>(addresses: readonly string[], work: (held: readonly string[]) => Promise<T>): Promise<T>;
  /**
   * A service's claim in slices (a host new to the fleet): set when this was a full slice of a share not yet
   * reached, so that the cycle claims again with it once it has decided these.
   */
  readonly more?: ClaimSlice;
  /**
   * Lets the addresses go (another short statement): those of `decided` (default: all of `mine`) are next due
   * an interval on, for a service; the others (a dry run, a refusal, an error before their decision) are left
   * as due as they were. A let-go the store cannot take now is tried again once it answers.
   */
  release(decided?: readonly string[]): Promise<void>;
}

/** Where a cycle claiming in slices stands: the addresses it took so far, and its share at its first claim. */
export interface ClaimSlice {
  taken: number;
  share: number;
}

/**
 * Claims `addresses` (given in order, each once) for one run or one cycle; `slice` when this is a later claim
 * of one cycle: the `more` of the claim before.
 */
export type ClaimAddresses = (addresses: readonly string[], slice?: ClaimSlice) => Promise<AddressClaim>;

/** Every address this run's: what a store without claims (the folder) and a test give. */
export function everyAddress(
  addresses: readonly string[],
  decide: AddressClaim['decide'] = (held, work) => work(held),
): AddressClaim {
  return { mine: addresses, elsewhere: new Map(), decide, release: async () => undefined };
}
