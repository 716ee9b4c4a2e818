/**
 * The state store's schema, `energy` in the database: created on first use and versioned
 * (energy.schema_version, one row per migration applied). Migrations run in one transaction under a
 * transaction-scoped advisory lock, so that two hosts starting at once apply each exactly once; a host that
 * finds the schema current takes no lock at all (one read).
 */
import type { PoolClient } from 'pg';
import { StateStoreError } from '../../domain/journal-errors.js';
import { SPEND_ENTRY_PLANNED, SPEND_SUMMED } from './pg-schema-spend.js';

/** pg_advisory_xact_lock(MIGRATION_LOCK, 0): the migrations' one advisory lock, held by the transaction that applies them. */
const MIGRATION_LOCK = 0x656e7267; // "enrg"

const MIGRATIONS: readonly string[] = [
  // 1: the order journal. A record is pending while `outcome` is null; the id is unique per API and key.
  `CREATE TABLE energy.journal (
     origin text NOT NULL,
     key_id text NOT NULL,
     client_request_id text NOT NULL,
     body text NOT NULL,
     journaled_at timestamptz NOT NULL,
     last_error text,
     outcome jsonb,
     host text NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (origin, key_id, client_request_id)
   );
   CREATE INDEX journal_pending ON energy.journal (journaled_at) WHERE outcome IS NULL;
   CREATE INDEX journal_ordered ON energy.journal (origin, key_id, journaled_at)
     WHERE outcome->>'kind' IN ('created', 'existing');
   CREATE INDEX journal_settled ON energy.journal (updated_at) WHERE outcome IS NOT NULL;`,
  // 2: ensure --max-spend's ledger, per API account: what the services naming the database ordered.
  `CREATE TABLE energy.spend (
     origin text NOT NULL,
     key_id text NOT NULL,
     order_id text NOT NULL,
     address text NOT NULL,
     total_trx numeric(30, 6) NOT NULL,
     at_ms bigint NOT NULL,
     state text NOT NULL CHECK (state IN ('placed', 'kept', 'refunded')),
     PRIMARY KEY (origin, key_id, order_id)
   );
   CREATE INDEX spend_at ON energy.spend (origin, key_id, at_ms);`,
  // ensure --max-spend's ledger as appended events (pg-spend-ledger.ts), named by account (key id) or budget,
  // never by the URL; the older table's rows become events of their key's account ledger, then it goes.
  `CREATE TABLE energy.spend_ledger (
     ledger text PRIMARY KEY,
     longest_window_ms bigint NOT NULL DEFAULT 0 CHECK (longest_window_ms >= 0)
   );
   CREATE TABLE energy.spend_event (
     ledger text NOT NULL REFERENCES energy.spend_ledger (ledger),
     seq bigint GENERATED ALWAYS AS IDENTITY,
     event_id text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('hold', 'drop', 'order', 'final')),
     client_request_id text NOT NULL,
     holder text,
     address text,
     total_trx numeric(30, 6),
     order_id text,
     state text CHECK (state IN ('kept', 'refunded', 'unknown')),
     key_id text,
     origin text,
     note text,
     at_ms bigint NOT NULL,
     host text NOT NULL,
     written_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (ledger, seq),
     UNIQUE (ledger, event_id)
   );
   CREATE INDEX spend_event_entry ON energy.spend_event (ledger, client_request_id);
   INSERT INTO energy.spend_ledger (ledger, longest_window_ms)
     SELECT DISTINCT 'account ' || key_id, 0 FROM energy.spend;
   INSERT INTO energy.spend_event
       (ledger, event_id, kind, client_request_id, holder, address, total_trx, order_id, state, key_id, origin, at_ms, host)
     SELECT 'account ' || key_id, md5(kind || ' ' || origin || ' ' || key_id || ' ' || order_id), kind,
            'v1 ' || order_id, CASE kind WHEN 'hold' THEN 'v1' END, address,
            CASE WHEN kind <> 'final' THEN total_trx END, CASE kind WHEN 'order' THEN order_id END,
            CASE kind WHEN 'final' THEN state END, key_id, origin, at_ms, 'migration'
       FROM energy.spend, unnest(ARRAY['hold', 'order', 'final']) AS kind
      WHERE kind <> 'final' OR state <> 'placed';
   DROP TABLE energy.spend;`,
  // (claims) One account per API key, whatever the URL's spelling; a decision reads its addresses' rows only;
  // ensure's claims with leases, and the hosts that take them. Rows of one id under two spellings of the URL
  // are one record: the one with an order is kept (else the pending one, else the earliest), the others are
  // moved to energy.journal_merged, where they stay readable.
  `ALTER TABLE energy.journal ADD COLUMN address text;
   UPDATE energy.journal SET address = substring(body from '"address"\\s*:\\s*"([^"\\\\]*)"');
   CREATE TABLE energy.journal_merged (LIKE energy.journal, merged_at timestamptz NOT NULL DEFAULT now());
   WITH ranked AS (
     SELECT ctid AS row_id, row_number() OVER (
       PARTITION BY key_id, client_request_id
       ORDER BY CASE WHEN outcome->>'kind' IN ('created', 'existing') THEN 0 WHEN outcome IS NULL THEN 1 ELSE 2 END,
                journaled_at, origin) AS rank
     FROM energy.journal
   ), moved AS (
     DELETE FROM energy.journal j USING ranked r WHERE j.ctid = r.row_id AND r.rank > 1
     RETURNING j.origin, j.key_id, j.client_request_id, j.body, j.journaled_at, j.last_error, j.outcome, j.host,
               j.updated_at, j.address
   )
   INSERT INTO energy.journal_merged
     (origin, key_id, client_request_id, body, journaled_at, last_error, outcome, host, updated_at, address)
     SELECT * FROM moved;
   ALTER TABLE energy.journal DROP CONSTRAINT journal_pkey;
   ALTER TABLE energy.journal ADD PRIMARY KEY (key_id, client_request_id);
   DROP INDEX energy.journal_ordered;
   CREATE INDEX journal_address ON energy.journal (key_id, address, journaled_at);
   CREATE TABLE energy.claims (
     key_id text NOT NULL,
     address text NOT NULL,
     holder text NOT NULL,
     token text NOT NULL,
     claimed_at timestamptz NOT NULL,
     lease_until timestamptz,
     decided_at timestamptz,
     PRIMARY KEY (key_id, address)
   ) WITH (fillfactor = 70);
   CREATE TABLE energy.hosts (
     host text NOT NULL,
     pid integer NOT NULL,
     key_id text NOT NULL,
     every_ms integer NOT NULL,
     address_list text NOT NULL,
     program text NOT NULL,
     last_claim_at timestamptz NOT NULL,
     last_claimed integer NOT NULL,
     last_skipped integer NOT NULL,
     PRIMARY KEY (host, pid)
   );
   CREATE TABLE energy.origins (
     key_id text NOT NULL,
     origin text NOT NULL,
     seen_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (key_id, origin)
   );
   INSERT INTO energy.origins (key_id, origin)
     SELECT DISTINCT key_id, origin FROM energy.journal
     UNION SELECT DISTINCT key_id, origin FROM energy.journal_merged;`,
  // 5: the --max-spend ledger summed by the database (pg-schema-spend.ts).
  SPEND_SUMMED,
  // 6: hosts and runs with an end. A process that ends says so: `energy state status` tells a live service from
  // a stopped one and from a one-shot run that is over. Idempotent: it touches energy.hosts alone, and only
  // if not done (it was written beside migration 5, in either order).
  `ALTER TABLE energy.hosts ADD COLUMN IF NOT EXISTS ended_at timestamptz;`,
  // 7: orders the fleet knows ended, per API key (pg-final-orders.ts): one host follows an order by id, not each.
  // Idempotent, as 6 is.
  `CREATE TABLE IF NOT EXISTS energy.final_order (
     key_id text NOT NULL,
     order_id text NOT NULL,
     known_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (key_id, order_id)
   );
   CREATE INDEX IF NOT EXISTS final_order_at ON energy.final_order (known_at);`,
  // 8: the order list read by one service of the fleet an interval (pg-shared-list.ts): per API key, the lease
  // of the host that reads it and which reading is current; the reading's orders, filed by address. Idempotent, as 7 is.
  `CREATE TABLE IF NOT EXISTS energy.order_list (
     key_id text PRIMARY KEY,
     holder text,
     lease_token text,
     lease_at timestamptz,
     lease_until timestamptz,
     read_at timestamptz,
     read_token text,
     reach_ms bigint,
     complete boolean,
     oldest_read_ms bigint,
     out_of_order boolean
   );
   CREATE TABLE IF NOT EXISTS energy.order_list_item (
     key_id text NOT NULL,
     token text NOT NULL,
     seq integer NOT NULL,
     address text NOT NULL,
     body jsonb NOT NULL,
     PRIMARY KEY (key_id, token, seq)
   );
   CREATE INDEX IF NOT EXISTS order_list_item_address ON energy.order_list_item (key_id, token, address);`,
  // 9: the reader's offer (GET /v1/energy/options) with its reading of the order list, and the token of the reading
  // it went with: a reading published by an energy at schema 8 (during an upgrade) leaves the column as it was,
  // and an offer whose token is not the current reading's is not used. Idempotent, as 8 is.
  `ALTER TABLE energy.order_list ADD COLUMN IF NOT EXISTS offer jsonb, ADD COLUMN IF NOT EXISTS offer_token text;`,
  // 10: when a host was last in touch with the fleet's database (its claims, lease renewals and let-gos:
  // pg-claims-sql.ts), so that a host whose cycle outlasts two intervals is not taken for one new to the fleet.
  // Null until its next claim: its last claim stands for it. Idempotent, as 9 is.
  `ALTER TABLE energy.hosts ADD COLUMN IF NOT EXISTS last_seen_at timestamptz;`,
  // 11: an entry's row made again reading the entry's own events by a plan made at each call (pg-schema-spend.ts).
  // Idempotent, as 10 is.
  SPEND_ENTRY_PLANNED,
];

/** The schema version this program writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version's read: also sent with the first session's check of its limits (pg-connect.ts), one round trip. */
export const READ_VERSION = 'SELECT max(version) AS version FROM energy.schema_version';

/**
 * The version the database is at, 0 when the schema is not there yet. Through a pooler that refuses or drops the
 * startup options, only the pool runs a statement in a transaction carrying the time limits
 * (pg-local-transaction.ts): a client's statement outside a transaction carries none.
 */
export async function schemaVersion(db: Pick<PoolClient, 'query'>): Promise<number> {
  try {
    const { rows } = await db.query<{ version: number | null }>(READ_VERSION);
    return rows[0]?.version ?? 0;
  } catch (error) {
    if (noSchema(error)) return 0;
    throw error;
  }
}

/** 3F000: no schema "energy"; 42P01: no table schema_version. */
export function noSchema(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '3F000' || code === '42P01';
}

/**
 * Brings the schema to SCHEMA_VERSION (idempotent, safe from many hosts at once); returns the version. `found`:
 * the version the caller read with the time limits on (pg-store.ts), so that a current schema costs no round trip
 * here; the client's own read outside a transaction would carry none through a pooler.
 */
export async function migrate(client: PoolClient, host: string, found: number): Promise<number> {
  if (found === SCHEMA_VERSION) return found;
  if (found > SCHEMA_VERSION) throw newerSchema(found);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, 0)', [MIGRATION_LOCK]);
    await client.query('CREATE SCHEMA IF NOT EXISTS energy');
    await client.query(
      `CREATE TABLE IF NOT EXISTS energy.schema_version (
         version integer PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now(),
         applied_by text NOT NULL
       )`,
    );
    // Read again under the lock: another host may have migrated while this one waited.
    const current = await schemaVersion(client);
    if (current > SCHEMA_VERSION) throw newerSchema(current);
    for (let version = current + 1; version <= SCHEMA_VERSION; version++) {
      await client.query(MIGRATIONS[version - 1]!);
      await client.query('INSERT INTO energy.schema_version (version, applied_by) VALUES ($1, $2)', [version, host]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return SCHEMA_VERSION;
}

/**
 * `energy doctor`'s write test: a row into the journal, the claims and the --max-spend ledger, in a transaction rolled back
 * (nothing stays), so that a read-only role, a standby or a revoked grant fails doctor, not the first order.
 */
export async function tryWrite(client: PoolClient): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO energy.journal (origin, key_id, client_request_id, body, journaled_at, host)
       VALUES ('energy doctor', 'energy doctor', 'energy doctor', '{}', now(), 'energy doctor')`,
    );
    await client.query(
      `INSERT INTO energy.claims (key_id, address, holder, token, claimed_at)
       VALUES ('energy doctor', 'energy doctor', 'energy doctor', 'energy doctor', now())`,
    );
    await client.query(`INSERT INTO energy.spend_ledger (ledger) VALUES ('energy doctor')`);
    await client.query(
      `INSERT INTO energy.spend_event (ledger, event_id, kind, client_request_id, holder, at_ms, host)
       VALUES ('energy doctor', 'energy doctor', 'drop', 'energy doctor', 'energy doctor', 0, 'energy doctor')`,
    );
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}

export function newerSchema(found: number): StateStoreError {
  return new StateStoreError(
    `the state store's schema is at version ${found}, written by a newer energy (this one knows ${SCHEMA_VERSION}): nothing was read or written`,
    { hint: 'upgrade energy on this host to the version the other hosts run' },
  );
}
