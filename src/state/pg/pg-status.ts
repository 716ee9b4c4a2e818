/**
 * `energy state status` on PostgreSQL: the services that claimed addresses (energy.hosts, written by each
 * claim), each live (it claimed, or renewed or let go its leases, within two of its intervals: a service whose
 * cycle outlasts them is slow, not gone), silent (it stopped claiming without saying so:
 * killed, frozen, its host gone) or ended (it stopped and said so); the one-shot runs, counted by host; the
 * leases held now and when they expire, the records whose outcome is unknown, the schema's version. One
 * statement, read-only; times on the database's clock, which it also says (the ledgers' fallback clock).
 */
import type { Pool } from 'pg';
import { printable } from '../../domain/printable.js';
import type { HostStatus, RunsStatus, StoreStatus } from '../state-store.js';
import { SCHEMA_VERSION } from './pg-schema.js';

const STATUS = `
WITH held AS (
  SELECT holder, count(*) AS leases, min(lease_until) AS soonest, max(lease_until) AS latest
  FROM energy.claims WHERE lease_until > now() GROUP BY holder
),
services AS (
  SELECT h.*, CASE WHEN h.ended_at IS NOT NULL THEN 'ended'
    WHEN greatest(h.last_claim_at, h.last_seen_at) > now() - 2 * h.every_ms * interval '1 millisecond' THEN 'live'
    ELSE 'silent' END AS state
  FROM energy.hosts h WHERE h.every_ms > 0
),
runs AS (
  SELECT host, count(*) AS runs, count(*) FILTER (WHERE ended_at IS NULL) AS not_ended, max(last_claim_at) AS last_at
  FROM energy.hosts WHERE every_ms = 0 GROUP BY host
)
SELECT
  (SELECT max(version) FROM energy.schema_version) AS version,
  (SELECT coalesce(json_agg(json_build_object(
     'host', s.host, 'pid', s.pid, 'program', s.program, 'state', s.state, 'every_ms', s.every_ms,
     'last_claim_at', s.last_claim_at, 'ended_at', s.ended_at, 'last_claimed', s.last_claimed,
     'last_skipped', s.last_skipped,
     'leases_held', CASE WHEN s.state = 'live' THEN coalesce(held.leases, 0) ELSE 0 END,
     'leases_expire_at', CASE WHEN s.state = 'live' THEN held.latest END)
     ORDER BY s.state = 'live' DESC, s.state = 'silent' DESC, s.last_claim_at DESC), '[]')
   FROM services s LEFT JOIN held ON held.holder = s.host) AS hosts,
  (SELECT coalesce(json_agg(json_build_object('host', host, 'runs', runs, 'not_ended', not_ended,
     'last_at', last_at) ORDER BY last_at DESC), '[]') FROM runs) AS runs,
  (SELECT coalesce(sum(leases), 0) FROM held) AS leases,
  (SELECT min(soonest) FROM held) AS soonest,
  (SELECT max(latest) FROM held) AS latest,
  (SELECT count(*) FROM energy.journal WHERE outcome IS NULL) AS pending,
  (SELECT count(*) FROM energy.journal WHERE outcome IS NULL AND address IS NULL) AS unreadable,
  (SELECT min(journaled_at) FROM energy.journal WHERE outcome IS NULL) AS oldest,
  (SELECT count(*) FROM energy.journal_merged) AS merged,
  floor(extract(epoch FROM now()) * 1000)::bigint AS now_ms`;

type Times<T, K extends keyof T> = Omit<T, K> & { [P in K]: string | null };

interface Row {
  version: number;
  hosts: Times<HostStatus, 'last_claim_at' | 'leases_expire_at' | 'ended_at'>[];
  runs: Times<RunsStatus['by_host'][number], 'last_at'>[];
  leases: string;
  soonest: Date | null;
  latest: Date | null;
  pending: string;
  unreadable: string;
  oldest: Date | null;
  merged: string;
  now_ms: string;
}

/** The store's status, and the database's clock as it read it (ms). */
export async function storeStatus(pool: Pool, where: string): Promise<{ status: StoreStatus; databaseNowMs: number }> {
  const { rows } = await pool.query<Row>(STATUS);
  const row = rows[0]!;
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  const byHost = row.runs.map((run) => ({
    host: printable(run.host, 64),
    runs: Number(run.runs),
    not_ended: Number(run.not_ended),
    last_at: iso(run.last_at)!,
  }));
  const status: StoreStatus = {
    store: 'postgresql',
    where,
    schema_version: row.version,
    program_schema_version: SCHEMA_VERSION,
    hosts: row.hosts.map((host) => ({
      ...host,
      host: printable(host.host, 64),
      program: host.program === null ? null : printable(host.program, 120),
      last_claim_at: iso(host.last_claim_at)!,
      ended_at: iso(host.ended_at),
      leases_expire_at: iso(host.leases_expire_at),
    })),
    runs: {
      total: byHost.reduce((sum, run) => sum + run.runs, 0),
      not_ended: byHost.reduce((sum, run) => sum + run.not_ended, 0),
      last_at: byHost[0]?.last_at ?? null,
      by_host: byHost,
    },
    leases: { held: Number(row.leases), soonest_expiry: iso(row.soonest), latest_expiry: iso(row.latest) },
    pending: { records: Number(row.pending), oldest: iso(row.oldest), unreadable: Number(row.unreadable) },
    merged_records: Number(row.merged),
    clock: { source: 'database', now: new Date(Number(row.now_ms)).toISOString() },
    ledgers: [],
  };
  return { status, databaseNowMs: Number(row.now_ms) };
}
