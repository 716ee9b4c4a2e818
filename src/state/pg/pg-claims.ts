/**
 * `ensure`'s claims in PostgreSQL (ensure/address-claim.ts), as graphile-worker and pg-boss take jobs: one row
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
import type { Pool } from 'pg';
import type { AddressClaim, ClaimHolder } from '../../ensure/address-claim.js';
import { printable } from '../../domain/printable.js';
import type { JournalScope } from '../../journal/order-journal.js';
import { stateStoreFailure } from './pg-connect.js';
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

export interface PgClaimsOptions {
  pool: Pool;
  url: string;
  host: string;
  /** --every in ms; undefined for one run. */
  everyMs: number | undefined;
}

/** The lease of a claim: a few intervals of a service, bounded; a fixed one for one run. */
export function leaseMs(everyMs: number | undefined): number {
  if (everyMs === undefined) return ONE_RUN_LEASE_MS;
  return Math.min(MAX_LEASE_MS, Math.max(MIN_LEASE_MS, LEASE_INTERVALS * everyMs));
}

const MS = "* interval '1 millisecond'";

/*
 * $1 key id, $2 addresses, $3 host, $4 token, $5 lease (ms), $6 due (ms), $7 SCHEMA_VERSION, $8 pid, $9 --every
 * (ms; 0 for one run), $10 the address list's digest. A service takes its share of what is due, the most
 * overdue first (pg-boss's batch): the addresses over the services of this account with this very list that
 * claimed within two intervals (a live one claims every interval), a quarter more for slack. Services with
 * other lists are not counted: each takes what is due of its own.
 */
const CLAIM = `
WITH v AS (SELECT max(version) AS version FROM energy.schema_version),
ok AS (SELECT (SELECT version FROM v) <= $7 AS ok),
share AS (
  SELECT CASE WHEN $9 = 0 THEN cardinality($2::text[]) ELSE ceil(1.25 * cardinality($2::text[]) / (1 + (
    SELECT count(*) FROM energy.hosts WHERE key_id = $1 AND address_list = $10 AND every_ms > 0
      AND NOT (host = $3 AND pid = $8) AND last_claim_at > now() - 2 * $9 ${MS})))::int END AS n
),
fresh AS (
  INSERT INTO energy.claims (key_id, address, holder, token, claimed_at, lease_until)
  SELECT $1, a, $3, $4, now(), now() + $5 ${MS} FROM unnest($2::text[]) AS a WHERE (SELECT ok FROM ok)
  LIMIT (SELECT n FROM share)
  ON CONFLICT (key_id, address) DO NOTHING
  RETURNING address
),
picked AS (
  SELECT address FROM energy.claims
  WHERE key_id = $1 AND address = ANY($2::text[]) AND (SELECT ok FROM ok)
    AND (lease_until IS NULL OR lease_until <= now()) AND claimed_at <= now() - $6 ${MS}
  ORDER BY claimed_at
  LIMIT greatest(0, (SELECT n FROM share) - (SELECT count(*) FROM fresh))
  FOR UPDATE SKIP LOCKED
),
taken AS (
  UPDATE energy.claims c SET holder = $3, token = $4, claimed_at = now(), lease_until = now() + $5 ${MS}
  FROM picked p WHERE c.key_id = $1 AND c.address = p.address
  RETURNING c.address
),
mine AS (SELECT address FROM fresh UNION ALL SELECT address FROM taken),
seen AS (
  INSERT INTO energy.hosts (host, pid, key_id, every_ms, address_list, program, last_claim_at, last_claimed,
    last_skipped)
  SELECT $3, $8, $1, $9, $10, current_setting('application_name'), now(), (SELECT count(*) FROM mine),
         cardinality($2::text[]) - (SELECT count(*) FROM mine)
  WHERE (SELECT ok FROM ok)
  ON CONFLICT (host, pid) DO UPDATE SET key_id = EXCLUDED.key_id, every_ms = EXCLUDED.every_ms,
    address_list = EXCLUDED.address_list,
    program = EXCLUDED.program, last_claim_at = EXCLUDED.last_claim_at, last_claimed = EXCLUDED.last_claimed,
    last_skipped = EXCLUDED.last_skipped
),
gone AS (DELETE FROM energy.hosts WHERE last_claim_at < now() - interval '7 days' AND (SELECT ok FROM ok))
SELECT (SELECT version FROM v) AS version, ARRAY(SELECT address FROM mine) AS mine`;

/** Who holds each skipped address, and until when: its lease, its next due time, or now (left to the others). */
const HOLDERS = `
SELECT address, holder, greatest(lease_until, claimed_at + $3 ${MS}, now()) AS until FROM energy.claims
WHERE key_id = $1 AND address = ANY($2::text[])`;

const RENEW = `
UPDATE energy.claims SET lease_until = now() + $4 ${MS}
WHERE key_id = $1 AND token = $2 AND address = ANY($3::text[]) RETURNING address`;

const RELEASE = `
UPDATE energy.claims SET lease_until = NULL, decided_at = now()
WHERE key_id = $1 AND token = $2 AND address = ANY($3::text[])`;

/** Claims `addresses` for the account `scope` names: one statement, no transaction left open. */
export async function claimAddresses(
  options: PgClaimsOptions,
  scope: JournalScope,
  addresses: readonly string[],
): Promise<AddressClaim> {
  const { pool, url, host, everyMs } = options;
  const token = randomUUID();
  const lease = leaseMs(everyMs);
  const due = everyMs === undefined ? 0 : Math.floor(DUE_SHARE * everyMs);
  const query = async <R extends object>(doing: string, sql: string, params: unknown[]) => {
    try {
      return (await pool.query<R>(sql, params)).rows;
    } catch (error) {
      throw stateStoreFailure(error, url, `to ${doing} (nothing was bought)`);
    }
  };
  const [row] = await query<{ version: number; mine: string[] }>('claim the addresses', CLAIM, [
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
  ]);
  if (row === undefined || row.version > SCHEMA_VERSION) throw newerSchema(row?.version ?? SCHEMA_VERSION + 1);
  const taken = new Set(row.mine);
  const mine = addresses.filter((address) => taken.has(address));
  const others = addresses.filter((address) => !taken.has(address));
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
    (await query<{ address: string }>('renew the claims', RENEW, [scope.keyId, token, which, lease])).map(
      (r) => r.address,
    );
  // The heartbeat: a live host keeps its addresses however long its work takes; a frozen one stops renewing.
  const heartbeat =
    mine.length === 0 ? undefined : setInterval(() => void renew(held).catch(() => undefined), Math.floor(lease / 3));
  heartbeat?.unref();
  return {
    mine,
    elsewhere,
    decide: async (wanted, work) => {
      const still = new Set(await renew(wanted));
      const lost = new Set(wanted.filter((address) => !still.has(address)));
      held = held.filter((address) => !lost.has(address));
      return work(wanted.filter((address) => still.has(address)));
    },
    release: async () => {
      clearInterval(heartbeat);
      if (mine.length === 0) return;
      // Expired by itself when this fails: let go is only sooner.
      await pool.query(RELEASE, [scope.keyId, token, mine]).catch(() => undefined);
    },
  };
}

/** The same list of addresses, in any order, gives the same digest: the services that share its work. */
function listDigest(addresses: readonly string[]): string {
  return createHash('sha256')
    .update([...addresses].sort().join('\n'))
    .digest('hex')
    .slice(0, 32);
}
