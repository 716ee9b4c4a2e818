/**
 * `energy state status` on PostgreSQL: the hosts that claimed addresses (energy.hosts, written by each claim),
 * the leases held now and when they expire, the records whose outcome is unknown, the schema's version. One
 * statement, read-only; times on the database's clock.
 */
import type { Pool } from 'pg';
import { printable } from '../../domain/printable.js';
import type { HostStatus, StoreStatus } from '../state-store.js';
import { SCHEMA_VERSION } from './pg-schema.js';

const STATUS = `
WITH held AS (
  SELECT holder, count(*) AS leases, min(lease_until) AS soonest, max(lease_until) AS latest
  FROM energy.claims WHERE lease_until > now() GROUP BY holder
)
SELECT
  (SELECT max(version) FROM energy.schema_version) AS version,
  (SELECT coalesce(json_agg(json_build_object(
     'host', h.host, 'pid', h.pid, 'program', h.program, 'last_claim_at', h.last_claim_at,
     'last_claimed', h.last_claimed, 'last_skipped', h.last_skipped,
     'leases_held', coalesce(held.leases, 0), 'leases_expire_at', held.latest)
     ORDER BY h.last_claim_at DESC), '[]')
   FROM energy.hosts h LEFT JOIN held ON held.holder = h.host) AS hosts,
  (SELECT coalesce(sum(leases), 0) FROM held) AS leases,
  (SELECT min(soonest) FROM held) AS soonest,
  (SELECT max(latest) FROM held) AS latest,
  (SELECT count(*) FROM energy.journal WHERE outcome IS NULL) AS pending,
  (SELECT count(*) FROM energy.journal WHERE outcome IS NULL AND address IS NULL) AS unreadable,
  (SELECT min(journaled_at) FROM energy.journal WHERE outcome IS NULL) AS oldest,
  (SELECT count(*) FROM energy.journal_merged) AS merged`;

interface Row {
  version: number;
  hosts: (Omit<HostStatus, 'last_claim_at' | 'leases_expire_at'> & {
    last_claim_at: string;
    leases_expire_at: string | null;
  })[];
  leases: string;
  soonest: Date | null;
  latest: Date | null;
  pending: string;
  unreadable: string;
  oldest: Date | null;
  merged: string;
}

export async function storeStatus(pool: Pool, where: string): Promise<StoreStatus> {
  const { rows } = await pool.query<Row>(STATUS);
  const row = rows[0]!;
  const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
  return {
    store: 'postgresql',
    where,
    schema_version: row.version,
    program_schema_version: SCHEMA_VERSION,
    hosts: row.hosts.map((host) => ({
      ...host,
      host: printable(host.host, 64),
      program: host.program === null ? null : printable(host.program, 120),
      last_claim_at: iso(host.last_claim_at)!,
      leases_expire_at: iso(host.leases_expire_at),
    })),
    leases: { held: Number(row.leases), soonest_expiry: iso(row.soonest), latest_expiry: iso(row.latest) },
    pending: { records: Number(row.pending), oldest: iso(row.oldest), unreadable: Number(row.unreadable) },
    merged_records: Number(row.merged),
    ledgers: [],
  };
}
