/**
 * The --max-spend ledger's questions as SQL (pg-spend-ledger.ts asks them): the database adds up a window,
 * so no process loads the ledger. The rule is spend-book.ts's, written once more here: per client_request_id,
 * its first order counts the order's price from the order's time; without one, its open holds (those no later
 * drop of the same holder took back) count the largest price from the latest time; a first outcome of
 * `refunded` counts nothing. A row that breaks the schema's rules (an amount missing or below zero: rows an
 * older schema let in, or a hand's edit) is found by the same query and refused by name, never counted as
 * nothing.
 */

/** Rows that are not whole events: the same test as the folder's lines (spend-ledger-lines.ts). */
export const DAMAGED = `(
  (kind IN ('hold', 'order') AND (total_trx IS NULL OR total_trx < 0 OR address IS NULL))
  OR (kind = 'hold' AND (holder IS NULL OR key_id IS NULL OR origin IS NULL))
  OR (kind = 'order' AND order_id IS NULL)
  OR (kind = 'drop' AND holder IS NULL)
  OR (kind = 'final' AND state IS NULL)
)`;

/**
 * $1 the ledger, $2 the window's start: what it counts (`spent`, six decimals), how many entries, when the
 * oldest counted counts from, and the first damaged row among the window's events (its seq and kind).
 */
export const WINDOW_SQL = `
WITH ids AS (
  SELECT DISTINCT client_request_id AS id FROM energy.spend_event
   WHERE ledger = $1 AND at_ms >= $2 AND kind IN ('hold', 'order')
), ev AS (
  SELECT e.client_request_id AS id, e.seq, e.kind, e.holder, e.total_trx, e.at_ms, e.state,
         ${DAMAGED} AS damaged
    FROM energy.spend_event e JOIN ids ON e.client_request_id = ids.id
   WHERE e.ledger = $1
), first_order AS (
  SELECT DISTINCT ON (id) id, total_trx, at_ms FROM ev WHERE kind = 'order' ORDER BY id, seq
), first_final AS (
  SELECT DISTINCT ON (id) id, state FROM ev WHERE kind = 'final' ORDER BY id, seq
), last_drop AS (
  SELECT id, holder, max(seq) AS seq FROM ev WHERE kind = 'drop' GROUP BY id, holder
), open_hold AS (
  SELECT h.id, max(h.total_trx) AS total_trx, max(h.at_ms) AS at_ms
    FROM ev h LEFT JOIN last_drop d ON d.id = h.id AND d.holder = h.holder
   WHERE h.kind = 'hold' AND (d.seq IS NULL OR h.seq > d.seq)
   GROUP BY h.id
), entry AS (
  SELECT COALESCE(o.total_trx, oh.total_trx) AS amount, COALESCE(o.at_ms, oh.at_ms) AS at_ms
    FROM ids
    LEFT JOIN first_order o ON o.id = ids.id
    LEFT JOIN open_hold oh ON oh.id = ids.id
    LEFT JOIN first_final f ON f.id = ids.id
   WHERE f.state IS DISTINCT FROM 'refunded'
), counted AS (
  SELECT amount, at_ms FROM entry WHERE amount IS NOT NULL AND at_ms >= $2
)
SELECT COALESCE(sum(amount), 0)::numeric(30, 6)::text AS spent,
       count(*)::int AS entries, min(at_ms)::text AS oldest,
       (SELECT seq::text FROM ev WHERE damaged ORDER BY seq LIMIT 1) AS damaged_seq,
       (SELECT kind FROM ev WHERE damaged ORDER BY seq LIMIT 1) AS damaged_kind
  FROM counted`;

/**
 * $1 the ledger: the time of its newest event (what a prune may reach, less the longest window), and the
 * API's time now as the last event written puts it (its time plus what the database's clock says has passed
 * since): a run whose own clock reads far past that counts from there instead.
 */
export const CLOCK_SQL = `
SELECT (SELECT max(at_ms) FROM energy.spend_event WHERE ledger = $1)::text AS newest,
       (SELECT (at_ms + extract(epoch FROM statement_timestamp() - written_at) * 1000)::bigint
          FROM energy.spend_event WHERE ledger = $1 ORDER BY seq DESC LIMIT 1)::text AS estimate`;

/**
 * $1 the ledger, $2 the cut: every event of the ids whose every event is older than the cut (no window can
 * reach them), looked for among the events older than it only (the oldest first, a bounded batch each time).
 */
export const PRUNE_SQL = `
DELETE FROM energy.spend_event e
 WHERE e.ledger = $1
   AND e.client_request_id IN (
     SELECT c.client_request_id FROM energy.spend_event c
      WHERE c.ledger = $1 AND c.at_ms < $2
      ORDER BY c.at_ms LIMIT 2000)
   AND NOT EXISTS (
     SELECT 1 FROM energy.spend_event n
      WHERE n.ledger = $1 AND n.client_request_id = e.client_request_id AND n.at_ms >= $2)`;

/** $1 the ledger, $2 the window's start, $3 the key, $4 how many: the newest counted orders with no outcome. */
export const OPEN_ORDERS_SQL = `
SELECT o.client_request_id AS id, o.order_id
  FROM energy.spend_event o
 WHERE o.ledger = $1 AND o.kind = 'order' AND o.at_ms >= $2 AND o.order_id IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM energy.spend_event x
                    WHERE x.ledger = $1 AND x.client_request_id = o.client_request_id
                      AND (x.kind = 'final' OR (x.kind = 'order' AND x.seq < o.seq)))
   AND EXISTS (SELECT 1 FROM energy.spend_event h
                WHERE h.ledger = $1 AND h.client_request_id = o.client_request_id
                  AND h.kind = 'hold' AND h.key_id = $3)
 ORDER BY o.at_ms DESC, o.seq DESC
 LIMIT $4`;

/** $1 the ledger, $2 since when, $3 the key, $4 how many: held requests with an open hold and no order. */
export const LACKING_SQL = `
SELECT h.client_request_id AS id, min(h.address) AS address, max(h.total_trx)::text AS total
  FROM energy.spend_event h
 WHERE h.ledger = $1 AND h.kind = 'hold' AND h.at_ms >= $2 AND h.key_id = $3 AND h.total_trx >= 0
   AND NOT EXISTS (SELECT 1 FROM energy.spend_event x
                    WHERE x.ledger = $1 AND x.client_request_id = h.client_request_id
                      AND (x.kind = 'order' OR (x.kind = 'drop' AND x.holder = h.holder AND x.seq > h.seq)))
 GROUP BY h.client_request_id
 ORDER BY min(h.seq)
 LIMIT $4`;
