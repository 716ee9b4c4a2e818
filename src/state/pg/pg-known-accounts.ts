/**
 * What the fleet knows of accounts on chain (ensure-types.ts KnownAccounts), in energy.known_account: an
 * address a host's `getaccount` found to be an account and no contract is not asked again by any host of the
 * database, for 30 days (then asked again, and its row pruned meanwhile). One statement each way.
 */
import type { Pool } from 'pg';
import type { KnownAccounts } from '../known-accounts.js';

const KEPT = "interval '30 days'";

export function pgKnownAccounts(pool: Pool): KnownAccounts {
  return {
    async known(node, addresses) {
      const { rows } = await pool.query<{ address: string }>(
        `SELECT address FROM energy.known_account
          WHERE node = $1 AND address = ANY($2) AND known_at > now() - ${KEPT}`,
        [node, addresses],
      );
      return new Set(rows.map((row) => row.address));
    },
    async add(node, addresses) {
      await pool.query(
        `WITH gone AS (DELETE FROM energy.known_account WHERE known_at < now() - ${KEPT})
         INSERT INTO energy.known_account (node, address) SELECT $1, a FROM unnest($2::text[]) AS a
         ON CONFLICT (node, address) DO UPDATE SET known_at = now()`,
        [node, addresses],
      );
    },
  };
}
