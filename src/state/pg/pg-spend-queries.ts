import { SELECT_EVENTS } from './pg-spend-rows.js';

/**
 * The --max-spend ledger's questions as SQL (pg-spend-ledger.ts asks them): the database adds up a window, so
 * no process loads the ledger. Each entry (a client_request_id) is a row of energy.spend_entry that a trigger
 * makes again from the entry's own events whenever one is added (schema migration 5, spend-book.ts's rule in
 * SQL): its first order counts the order's price from the order's time; without one, its open holds (those no
 * later drop of the same holder took back) count the largest price from the latest time; a first outcome of
 * `refunded` counts nothing. A window is then one indexed sum over the entries. An entry one of whose events
 * breaks the schema's rules (an amount missing or below zero: a row an older schema let in, or a hand's edit)
 * carries that event's seq, and the sum refuses it by name, never counting it as nothing.
 */

/**
 * $1 the ledger, $2 the window's start: what it counts (`spent`, six decimals), how many entries, when the
 * oldest counted counts from, and the first damaged event among the window's entries (its seq and kind).
 */
export const WINDOW_SQL = `
WITH w AS (
  SELECT COALESCE(sum(amount), 0)::numeric(30, 6)::text AS spent, count(amount)::int AS entries,
         (min(at_ms) FILTER (WHERE amount IS NOT NULL))::text AS oldest, min(damaged_seq) AS damaged
    FROM energy.spend_entry WHERE ledger = $1 AND at_ms >= $2
)
SELECT spent, entries, oldest, damaged::text AS damaged_seq,
       (SELECT kind FROM energy.spend_event WHERE ledger = $1 AND seq = w.damaged) AS damaged_kind
  FROM w`;

/**
 * A hold's reading, one statement under the ledger's row lock (pg-spend-ledger.ts): $1 the ledger, $2 the run's
 * "now" (the API's time, ms), $3 the window (ms), $4 the asked ids, $5 the key, $6 the slack past the ledger's
 * clock. The API's time now as the last event written puts it (its time plus what the database's clock says
 * has passed since): a run whose own clock reads far past that counts from there instead (`since`). Then what
 * the window from there counts (WINDOW_SQL's columns), the asked ids' own events (`events`, JSON, in their
 * order), the origins the key has ordered from with this ledger, and the ledger's newest event (what a prune
 * may reach, less the longest window). One snapshot for all of it.
 */
export const HOLD_READ_SQL = `
WITH clock AS (
  SELECT (SELECT max(at_ms) FROM energy.spend_event WHERE ledger = $1) AS newest,
         (SELECT (at_ms + extract(epoch FROM statement_timestamp() - written_at) * 1000)::bigint
            FROM energy.spend_event WHERE ledger = $1 ORDER BY seq DESC LIMIT 1) AS estimate
),
since AS (
  SELECT CASE WHEN estimate IS NULL THEN $2::float8 ELSE least($2::float8, estimate::float8 + $6::float8) END
         - $3::float8 AS since FROM clock
),
w AS (
  SELECT COALESCE(sum(amount), 0)::numeric(30, 6)::text AS spent, count(amount)::int AS entries,
         (min(at_ms) FILTER (WHERE amount IS NOT NULL))::text AS oldest, min(damaged_seq) AS damaged
    FROM energy.spend_entry WHERE ledger = $1 AND at_ms >= (SELECT since FROM since)
)
SELECT spent, entries, oldest, damaged::text AS damaged_seq,
       (SELECT kind FROM energy.spend_event WHERE ledger = $1 AND seq = w.damaged) AS damaged_kind,
       (SELECT newest FROM clock)::text AS newest, (SELECT since FROM since)::text AS since,
       (SELECT coalesce(json_agg(e ORDER BY e.seq::bigint), '[]')
          FROM (${SELECT_EVENTS} FROM energy.spend_event WHERE ledger = $1 AND client_request_id = ANY($4::text[])) e)
         AS events,
       ARRAY(SELECT origin FROM energy.spend_origin WHERE ledger = $1 AND key_id = $5) AS origins
  FROM w`;

/**
 * A hold's writes beside its events, one statement: $1 the ledger; $2 the prune's cut (null: none), $3 the
 * ledger's longest window when this hold's is longer (null: as it is), $4 the key and $5 the origin to note
 * (null: none). The prune: every event of the ids whose every event is older than the cut (no window can reach
 * them), looked for among the events older than it only (the oldest first, a bounded batch each time); their
 * entries go with them (the schema's trigger).
 */
export const HOLD_WRITE_SQL = `
WITH pruned AS (
  DELETE FROM energy.spend_event e
   WHERE $2::bigint IS NOT NULL AND e.ledger = $1
     AND e.client_request_id IN (
       SELECT c.client_request_id FROM energy.spend_event c
        WHERE c.ledger = $1 AND c.at_ms < $2::bigint
        ORDER BY c.at_ms LIMIT 2000)
     AND NOT EXISTS (
       SELECT 1 FROM energy.spend_event n
        WHERE n.ledger = $1 AND n.client_request_id = e.client_request_id AND n.at_ms >= $2::bigint)
),
widened AS (
  UPDATE energy.spend_ledger SET longest_window_ms = $3::bigint WHERE ledger = $1 AND $3::bigint IS NOT NULL
),
noted AS (
  INSERT INTO energy.spend_origin (ledger, key_id, origin)
  SELECT $1, $4, $5 WHERE $5::text IS NOT NULL ON CONFLICT DO NOTHING
)
SELECT 1`;

/** $1 the ledger, $2 the window's start, $3 the key, $4 how many: the newest counted orders with no outcome. */
export const OPEN_ORDERS_SQL = `
SELECT client_request_id AS id, order_id FROM energy.spend_entry
 WHERE ledger = $1 AND at_ms >= $2 AND key_id = $3
   AND order_id IS NOT NULL AND final_state IS NULL AND amount IS NOT NULL
 ORDER BY at_ms DESC
 LIMIT $4`;

/** $1 the ledger, $2 since when, $3 the key, $4 how many: held requests (an open hold) with no order. */
export const LACKING_SQL = `
SELECT client_request_id AS id, address, amount::text AS total FROM energy.spend_entry
 WHERE ledger = $1 AND at_ms >= $2 AND key_id = $3 AND order_id IS NULL AND amount IS NOT NULL
 ORDER BY at_ms
 LIMIT $4`;
