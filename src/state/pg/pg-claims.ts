/**
 * `ensure`'s claims in PostgreSQL (state/address-claim.ts), as graphile-worker and pg-boss take jobs: one row
 * per account (API key) and address in energy.claims. A run claims its addresses in one statement, its own
 * transaction: the rows no other host holds are locked `FOR UPDATE SKIP LOCKED` (a row another host is
 * claiming at that instant is skipped, never waited on) and get this run's token and a lease; missing rows are
 * inserted already claimed. Then the transaction ends: the chain is read and orders are placed with no
 * transaction open and no lock held, and nothing in the server's lock table grows with the addresses (row
 * locks live in the rows, for one statement). While it works the run renews its leases (a heartbeat, and once
 * before it orders); it lets them go in a last statement. A frozen or dead host costs at most its lease.
 *
 * The same statement reads the schema's version: a running service that meets a newer one fails its cycle
 * with the reason and claims (so orders) nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { StateUrl } from '../../config/state-url.js';
import type { Pool } from 'pg';
import type { AddressClaim, ClaimHolder, ClaimSlice } from '../address-claim.js';
import { printable } from '../../domain/printable.js';
import type { JournalScope } from '../../journal/order-journal.js';
import { stateStoreFailure } from './pg-connect.js';
import { CLAIM, HOLDERS, PRUNE_CLAIMS, RELEASE, RENEW } from './pg-claims-sql.js';
import type { ClaimsUpkeep } from './pg-claims-upkeep.js';
import { newerSchema, SCHEMA_VERSION } from './pg-schema.js';

/** A lease lasts this many intervals of a service (a few missed cycles), within the bounds below. */
const LEASE_INTERVALS = 3;
const MIN_LEASE_MS = 5_000;
/** As pg-boss's default job expiry: a host frozen longer than this loses its addresses, whatever its interval. */
const MAX_LEASE_MS = 15 * 60_000;
/** One run (no --every): its lease, renewed while it works. */
const ONE_RUN_LEASE_MS = 30_000;
/**
 * A service's address decided by any host is due again this share of an interval later: before this host's
 * own next cycle (at least 0.9 of an interval on, with the loop's jitter), after the other hosts' cycles of
 * this interval. One decision per address per interval across the fleet.
 */
const DUE_SHARE = 0.85;
/**
 * 40P01: hosts that claim the same new addresses at one instant insert them each in an order of its own (CLAIM's
 * `fresh`), so that they mostly take different ones; two that meet wait for each other, and PostgreSQL ends
 * one statement, whole (nothing of it stays). That claim is asked again, then seeing the other's rows. Two hosts
 * × 2,000 new addresses at once met in 18 of 40 rounds; without this, a service's first cycle failed (a claim of
 * no address: not even its host row) and a one-shot run exited 11.
 */
const DEADLOCK_DETECTED = '40P01';
const CLAIM_ATTEMPTS = 5;

export interface PgClaimsOptions {
  pool: Pool;
  url: StateUrl;
  host: string;
  /** --every in ms; undefined for one run. */
  everyMs: number | undefined;
  /** The process's let-gos to retry and its pruning (pg-claims-upkeep.ts). */
  upkeep: ClaimsUpkeep;
}

/** The lease of a claim: a few intervals of a service, bounded; a fixed one for one run. */
export function leaseMs(everyMs: number | undefined): number {
  if (everyMs === undefined) return ONE_RUN_LEASE_MS;
  return Math.min(MAX_LEASE_MS, Math.max(MIN_LEASE_MS, LEASE_INTERVALS * everyMs));
}

/**
 * Claims `addresses` for the account `scope` names: one statement, no transaction left open. `slice` when this
 * is a later slice of a service's cycle (see CLAIM): how many addresses it took earlier in the cycle.
 */
export async function claimAddresses(
  options: PgClaimsOptions,
  scope: JournalScope,
  addresses: readonly string[],
  slice?: ClaimSlice,
): Promise<AddressClaim> {
  const { pool, url, host, everyMs, upkeep } = options;
  const token = randomUUID();
  const lease = leaseMs(everyMs);
  const due = everyMs === undefined ? 0 : Math.floor(DUE_SHARE * everyMs);
  const query = async <R extends object>(doing: string, sql: string, params: unknown[]) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await pool.query<R>(sql, params)).rows;
      } catch (error) {
        if (sql === CLAIM && attempt < CLAIM_ATTEMPTS && isDeadlock(error)) continue;
        throw stateStoreFailure(error, url, `to ${doing} (nothing was bought)`);
      }
    }
  };
  // What an earlier cycle could not let go (the database was away) first: the addresses are then as due as they are.
  await upkeep.retry();
  const [row] = await query<ClaimRow>('claim the addresses', CLAIM, [
    scope.keyId,
    addresses,
    host,
    token,
    lease,
    due,
    SCHEMA_VERSION,
    process.pid,
    everyMs ?? 0,
    listDigest(addresses),
    slice !== undefined,
    slice?.taken ?? 0,
    slice?.share ?? null,
  ]);
  if (row === undefined || row.version > SCHEMA_VERSION) throw newerSchema(row?.version ?? SCHEMA_VERSION + 1);
  if (upkeep.pruneDue()) await pool.query(PRUNE_CLAIMS).catch(() => undefined);
  const before = new Map(row.addresses.map((address, i) => [address, row.prevs[i] ?? null]));
  const mine = addresses.filter((address) => before.has(address));
  const others = addresses.filter((address) => !before.has(address));
  const elsewhere = new Map<string, ClaimHolder | undefined>(others.map((address) => [address, undefined]));
  if (others.length > 0) {
    const rows = await query<{ address: string; holder: string; until: Date | null }>('read the claims', HOLDERS, [
      scope.keyId,
      others,
      due,
    ]);
    for (const { address, holder, until } of rows)
      elsewhere.set(address, { host: printable(holder, 64), until: (until ?? new Date()).toISOString() });
  }
  let held = mine;
  const renew = async (which: readonly string[]) =>
    (
      await query<{ address: string }>('renew the claims', RENEW, [scope.keyId, token, which, lease, host, process.pid])
    ).map((r) => r.address);
  // The heartbeat: a live host keeps its addresses however long its work takes; a frozen one stops renewing.
  const heartbeat =
    mine.length === 0 ? undefined : setInterval(() => void renew(held).catch(() => undefined), Math.floor(lease / 3));
  heartbeat?.unref();
  const taken = (slice?.taken ?? 0) + mine.length;
  return {
    mine,
    elsewhere,
    // A slice of a share not yet reached: the cycle claims again once it has decided these (until one finds none).
    ...(row.sliced && mine.length > 0 && taken < row.share && { more: { taken, share: row.share } }),
    decide: async (wanted, work) => {
      const still = new Set(await renew(wanted));
      const lost = new Set(wanted.filter((address) => !still.has(address)));
      held = held.filter((address) => !lost.has(address));
      return work(wanted.filter((address) => still.has(address)));
    },
    release: async (decided = mine) => {
      clearInterval(heartbeat);
      if (mine.length === 0) return;
      const sure = new Set(decided);
      const prevs = mine.map((a) => before.get(a) ?? null);
      const params = [scope.keyId, token, mine, prevs, mine.map((a) => sure.has(a)), host, process.pid];
      // Kept to try again when the database does not answer: the leases would only run out, a lease later.
      await upkeep.letGo(() => pool.query(RELEASE, params));
    },
  };
}

interface ClaimRow {
  version: number;
  /** The addresses claimed, and each one's claimed_at before (its text; null where the row is new). */
  addresses: string[];
  prevs: (string | null)[];
  /** This host's share of the list this cycle, and whether this claim was a slice of it. */
  share: number;
  sliced: boolean;
}

/** The same list of addresses, in any order, gives the same digest: the services that share its work. */
function listDigest(addresses: readonly string[]): string {
  return createHash('sha256')
    .update([...addresses].sort().join('\n'))
    .digest('hex')
    .slice(0, 32);
}

function isDeadlock(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === DEADLOCK_DETECTED;
}
