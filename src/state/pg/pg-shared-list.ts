/**
 * The order list shared by a fleet (state/shared-list.ts) in energy.order_list (one row per API key: the lease,
 * and which reading is current) and energy.order_list_item (the current reading's orders, filed by address).
 * Each step is one statement, its own short transaction; nothing is held across the API's pages. Times are
 * the database's (`now()`), one clock for every host. Rows have an end: a reading's orders go when the next
 * one is published, and a key nobody has read for a day goes with its orders at the next host's publishing. The
 * reader's offer is kept on the key's row, with the token of the reading it came with (migration 9).
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { ListedOrder, ListReach, ListTurn, SharedOrderList } from '../shared-list.js';

/** A key whose list nobody read for this long is pruned (with its orders). */
const LIST_KEPT = "interval '1 day'";

const MS = "* interval '1 millisecond'";

/**
 * The lease, when the reading is `$5` ms old or more (or from the future: the clock stepped back) and no lease
 * holds (or one set impossibly far ahead); else the young reading's orders of `$6`'s addresses. `current` is the
 * row as the statement began: a lease another host took at that instant makes this one `wait`, then see it.
 */
const TAKE = `
WITH current AS (
  SELECT read_token, reach_ms, complete, oldest_read_ms, out_of_order,
         CASE WHEN offer_token = read_token THEN offer END AS offer,
         read_at > now() - $5 ${MS} AND read_at <= now() AS fresh,
         (extract(epoch FROM now() - read_at) * 1000)::bigint AS age_ms
    FROM energy.order_list WHERE key_id = $1
), taken AS (
  INSERT INTO energy.order_list AS l (key_id, holder, lease_token, lease_at, lease_until)
  VALUES ($1, $2, $3, now(), now() + $4 ${MS})
  ON CONFLICT (key_id) DO UPDATE SET holder = excluded.holder, lease_token = excluded.lease_token,
     lease_at = excluded.lease_at, lease_until = excluded.lease_until
   WHERE (l.read_at IS NULL OR l.read_at <= now() - $5 ${MS} OR l.read_at > now())
     AND (l.lease_until IS NULL OR l.lease_until <= now() OR l.lease_until > now() + $4 ${MS})
  RETURNING 1
)
SELECT (SELECT count(*) FROM taken)::int AS taken, c.fresh, c.age_ms, c.reach_ms, c.complete, c.oldest_read_ms,
       c.out_of_order, c.offer,
       (SELECT coalesce(json_agg(i.body ORDER BY i.seq), '[]'::json) FROM energy.order_list_item i
         WHERE c.fresh AND i.key_id = $1 AND i.token = c.read_token AND i.address = ANY($6)) AS orders
  FROM (SELECT 1) AS one LEFT JOIN current c ON true`;

/**
 * The reading published under the lease `$2` (if still this host's): its orders in, the last reading's out, and
 * keys nobody read for a day (or whose lease ended a day ago unread) out with their orders.
 */
const PUBLISH = `
WITH mine AS (
  UPDATE energy.order_list SET read_at = lease_at, read_token = lease_token, reach_ms = $4, complete = $5,
         oldest_read_ms = $6, out_of_order = $7, offer = $8::jsonb, offer_token = lease_token,
         lease_token = NULL, lease_until = NULL
   WHERE key_id = $1 AND lease_token = $2
  RETURNING key_id
), old AS (
  SELECT key_id FROM energy.order_list
   WHERE EXISTS (SELECT 1 FROM mine) AND key_id <> $1
     AND coalesce(read_at, lease_until) < now() - ${LIST_KEPT} AND (lease_until IS NULL OR lease_until < now())
), added AS (
  INSERT INTO energy.order_list_item (key_id, token, seq, address, body)
  SELECT $1, $2, t.n - 1, t.o->>'address', t.o FROM mine, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS t(o, n)
), gone AS (
  DELETE FROM energy.order_list_item i
   WHERE EXISTS (SELECT 1 FROM mine) AND ((i.key_id = $1 AND i.token <> $2) OR i.key_id IN (SELECT key_id FROM old))
), pruned AS (
  DELETE FROM energy.order_list WHERE key_id IN (SELECT key_id FROM old)
)
SELECT count(*)::int AS published FROM mine`;

const RELEASE =
  'UPDATE energy.order_list SET lease_token = NULL, lease_until = NULL WHERE key_id = $1 AND lease_token = $2';

interface TakeRow {
  taken: number;
  fresh: boolean | null;
  age_ms: string | null;
  reach_ms: string | null;
  complete: boolean | null;
  oldest_read_ms: string | null;
  out_of_order: boolean | null;
  offer: unknown;
  orders: unknown[];
}

export function pgSharedList(pool: Pool, keyId: string, holder: string): SharedOrderList {
  return {
    async take(addresses, everyMs, leaseMs): Promise<ListTurn> {
      const token = randomUUID();
      const { rows } = await pool.query<TakeRow>(TAKE, [keyId, holder, token, leaseMs, everyMs, addresses]);
      const row = rows[0]!;
      if (row.taken > 0) return { kind: 'read', token };
      if (row.fresh !== true) return { kind: 'wait' };
      return {
        kind: 'snapshot',
        snapshot: {
          orders: row.orders,
          ageMs: Number(row.age_ms),
          reachMs: Number(row.reach_ms),
          complete: row.complete === true,
          oldestReadMs: row.oldest_read_ms === null ? null : Number(row.oldest_read_ms),
          outOfOrder: row.out_of_order === true,
          offer: row.offer ?? null,
        },
      };
    },
    async publish(token, orders: readonly ListedOrder[], reach: ListReach, offer: unknown) {
      const { rows } = await pool.query<{ published: number }>(PUBLISH, [
        keyId,
        token,
        JSON.stringify(orders),
        reach.reachMs,
        reach.complete,
        reach.oldestReadMs,
        reach.outOfOrder,
        offer === null || offer === undefined ? null : JSON.stringify(offer),
      ]);
      return (rows[0]?.published ?? 0) > 0;
    },
    async release(token) {
      await pool.query(RELEASE, [keyId, token]);
    },
  };
}
