/**
 * Orders the fleet knows ended (journal/final-orders.ts), in energy.final_order: an order one host followed
 * by id until it ended is not asked for again by any host of the database. A row is kept 7 days (longer than
 * ensure follows any order: its hours and 15 minutes), then pruned by the next host that adds one. One
 * statement each way.
 */
import type { Pool } from 'pg';
import type { FinalOrders } from '../../journal/final-orders.js';

const KEPT = "interval '7 days'";

export function pgFinalOrders(pool: Pool, keyId: string): FinalOrders {
  return {
    async known(orderIds) {
      const { rows } = await pool.query<{ order_id: string }>(
        'SELECT order_id FROM energy.final_order WHERE key_id = $1 AND order_id = ANY($2)',
        [keyId, orderIds],
      );
      return new Set(rows.map((row) => row.order_id));
    },
    async add(orderIds) {
      await pool.query(
        `WITH gone AS (DELETE FROM energy.final_order WHERE known_at < now() - ${KEPT})
         INSERT INTO energy.final_order (key_id, order_id) SELECT $1, o FROM unnest($2::text[]) AS o
         ON CONFLICT (key_id, order_id) DO NOTHING`,
        [keyId, orderIds],
      );
    },
  };
}
