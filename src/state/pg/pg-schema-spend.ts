/**
 * Schema migration 5 (pg-schema.ts): the --max-spend ledger summed by the database (pg-spend-queries.ts).
 * Each entry (a client_request_id) kept as one row of energy.spend_entry, made again from its own few events by a trigger on every event
 * added (spend-book.ts's rule, in SQL), so that a window is one indexed sum; events by ledger and time; the
 * base URLs each key's holds came from; the accounts a fleet found on chain; rows checked as the folder's lines are (NOT VALID: a row an older
 * energy let in is kept, found by the reader and named). The entries of a ledger at 4 are made from its
 * events here: what its ceiling counted, it counts.
 */
export const SPEND_SUMMED = `CREATE INDEX spend_event_at ON energy.spend_event (ledger, at_ms);
   ALTER TABLE energy.spend_event ADD CONSTRAINT spend_event_whole CHECK (COALESCE(
     at_ms >= 0 AND CASE kind
       WHEN 'hold' THEN holder IS NOT NULL AND address IS NOT NULL AND total_trx >= 0
                        AND key_id IS NOT NULL AND origin IS NOT NULL
       WHEN 'order' THEN order_id IS NOT NULL AND address IS NOT NULL AND total_trx >= 0
       WHEN 'drop' THEN holder IS NOT NULL
       ELSE state IS NOT NULL
     END, false)) NOT VALID;
   CREATE TABLE energy.spend_origin (
     ledger text NOT NULL REFERENCES energy.spend_ledger (ledger),
     key_id text NOT NULL,
     origin text NOT NULL,
     PRIMARY KEY (ledger, key_id, origin)
   );
   INSERT INTO energy.spend_origin (ledger, key_id, origin)
     SELECT DISTINCT ledger, key_id, origin FROM energy.spend_event
      WHERE kind = 'hold' AND key_id IS NOT NULL AND origin IS NOT NULL;
   CREATE TABLE energy.spend_entry (
     ledger text NOT NULL,
     client_request_id text NOT NULL,
     address text,
     key_id text,
     order_id text,
     final_state text,
     amount numeric(30, 6),
     at_ms bigint,
     damaged_seq bigint,
     PRIMARY KEY (ledger, client_request_id)
   );
   CREATE INDEX spend_entry_at ON energy.spend_entry (ledger, at_ms) INCLUDE (amount);
   -- What a ceiling looks for besides its sum: orders with no outcome yet, holds with no order (a few each).
   CREATE INDEX spend_entry_open ON energy.spend_entry (ledger, key_id, at_ms)
     WHERE order_id IS NOT NULL AND final_state IS NULL;
   CREATE INDEX spend_entry_lacking ON energy.spend_entry (ledger, key_id, at_ms) WHERE order_id IS NULL;
   -- Accounts on chain that are not contracts, per TRON node, as a host's getaccount found them: the fleet
   -- asks once per address (pg-known-accounts.ts); a row is asked again after 30 days, then pruned.
   CREATE TABLE energy.known_account (
     node text NOT NULL,
     address text NOT NULL,
     known_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (node, address)
   );
   CREATE INDEX known_account_at ON energy.known_account (known_at);
   CREATE FUNCTION energy.spend_entry_refresh(l text, id text) RETURNS void LANGUAGE plpgsql AS $f$
   BEGIN
     IF NOT EXISTS (SELECT 1 FROM energy.spend_event WHERE ledger = l AND client_request_id = id) THEN
       DELETE FROM energy.spend_entry WHERE ledger = l AND client_request_id = id;
       RETURN;
     END IF;
     -- The entry's row first, locked: another transaction changing the same entry is waited for, then seen
     -- (each statement below reads afresh).
     INSERT INTO energy.spend_entry (ledger, client_request_id) VALUES (l, id) ON CONFLICT DO NOTHING;
     PERFORM 1 FROM energy.spend_entry WHERE ledger = l AND client_request_id = id FOR UPDATE;
     WITH ev AS (
       SELECT * FROM energy.spend_event WHERE ledger = l AND client_request_id = id
     ), first_order AS (
       SELECT order_id, total_trx, at_ms FROM ev WHERE kind = 'order' ORDER BY seq LIMIT 1
     ), first_final AS (
       SELECT state FROM ev WHERE kind = 'final' ORDER BY seq LIMIT 1
     ), open_hold AS (
       SELECT max(h.total_trx) AS total_trx, max(h.at_ms) AS at_ms FROM ev h
        WHERE h.kind = 'hold'
          AND NOT EXISTS (SELECT 1 FROM ev d WHERE d.kind = 'drop' AND d.holder = h.holder AND d.seq > h.seq)
     )
     UPDATE energy.spend_entry SET
       address = (SELECT address FROM ev WHERE kind IN ('hold', 'order') AND address IS NOT NULL ORDER BY seq LIMIT 1),
       key_id = (SELECT key_id FROM ev WHERE kind = 'hold' AND key_id IS NOT NULL ORDER BY seq LIMIT 1),
       order_id = (SELECT order_id FROM first_order),
       final_state = (SELECT state FROM first_final),
       amount = CASE WHEN (SELECT state FROM first_final) IS NOT DISTINCT FROM 'refunded' THEN NULL
                     WHEN EXISTS (SELECT 1 FROM first_order) THEN (SELECT total_trx FROM first_order)
                     ELSE (SELECT total_trx FROM open_hold) END,
       at_ms = COALESCE((SELECT at_ms FROM first_order), (SELECT at_ms FROM open_hold)),
       damaged_seq = (SELECT min(seq) FROM ev WHERE
         (kind IN ('hold', 'order') AND (total_trx IS NULL OR total_trx < 0 OR address IS NULL))
         OR (kind = 'hold' AND (holder IS NULL OR key_id IS NULL OR origin IS NULL))
         OR (kind = 'order' AND order_id IS NULL)
         OR (kind = 'drop' AND holder IS NULL)
         OR (kind = 'final' AND state IS NULL))
     WHERE ledger = l AND client_request_id = id;
   END $f$;
   -- Events are only ever added (and pruned); a row deleted or set right by hand makes its entry again too.
   CREATE FUNCTION energy.spend_event_changed() RETURNS trigger LANGUAGE plpgsql AS $f$
   BEGIN
     IF TG_OP <> 'INSERT' THEN
       PERFORM energy.spend_entry_refresh(OLD.ledger, OLD.client_request_id);
     END IF;
     IF TG_OP <> 'DELETE' THEN
       PERFORM energy.spend_entry_refresh(NEW.ledger, NEW.client_request_id);
     END IF;
     RETURN NULL;
   END $f$;
   CREATE TRIGGER spend_event_changed AFTER INSERT OR UPDATE OR DELETE ON energy.spend_event
     FOR EACH ROW EXECUTE FUNCTION energy.spend_event_changed();
   -- The entries of the events already there, made in one pass (the same rule as spend_entry_refresh, as a set:
   -- one call per entry would run past statement_timeout on a ledger of a few hundred thousand orders).
   INSERT INTO energy.spend_entry
       (ledger, client_request_id, address, key_id, order_id, final_state, amount, at_ms, damaged_seq)
   WITH first_order AS (
     SELECT DISTINCT ON (ledger, client_request_id) ledger, client_request_id, order_id, total_trx, at_ms
       FROM energy.spend_event WHERE kind = 'order' ORDER BY ledger, client_request_id, seq
   ), first_final AS (
     SELECT DISTINCT ON (ledger, client_request_id) ledger, client_request_id, state
       FROM energy.spend_event WHERE kind = 'final' ORDER BY ledger, client_request_id, seq
   ), last_drop AS (
     SELECT ledger, client_request_id, holder, max(seq) AS seq
       FROM energy.spend_event WHERE kind = 'drop' GROUP BY ledger, client_request_id, holder
   ), open_hold AS (
     SELECT h.ledger, h.client_request_id, max(h.total_trx) AS total_trx, max(h.at_ms) AS at_ms
       FROM energy.spend_event h
       LEFT JOIN last_drop d
         ON d.ledger = h.ledger AND d.client_request_id = h.client_request_id AND d.holder = h.holder
      WHERE h.kind = 'hold' AND (d.seq IS NULL OR h.seq > d.seq)
      GROUP BY h.ledger, h.client_request_id
   ), firsts AS (
     SELECT ledger, client_request_id,
            (array_agg(address ORDER BY seq) FILTER (WHERE kind IN ('hold', 'order') AND address IS NOT NULL))[1]
              AS address,
            (array_agg(key_id ORDER BY seq) FILTER (WHERE kind = 'hold' AND key_id IS NOT NULL))[1] AS key_id,
            min(seq) FILTER (WHERE
              (kind IN ('hold', 'order') AND (total_trx IS NULL OR total_trx < 0 OR address IS NULL))
              OR (kind = 'hold' AND (holder IS NULL OR key_id IS NULL OR origin IS NULL))
              OR (kind = 'order' AND order_id IS NULL)
              OR (kind = 'drop' AND holder IS NULL)
              OR (kind = 'final' AND state IS NULL)) AS damaged_seq
       FROM energy.spend_event GROUP BY ledger, client_request_id
   )
   SELECT f.ledger, f.client_request_id, f.address, f.key_id, o.order_id, fi.state,
          CASE WHEN fi.state IS NOT DISTINCT FROM 'refunded' THEN NULL
               WHEN o.at_ms IS NOT NULL THEN o.total_trx
               ELSE oh.total_trx END,
          COALESCE(o.at_ms, oh.at_ms), f.damaged_seq
     FROM firsts f
     LEFT JOIN first_order o ON o.ledger = f.ledger AND o.client_request_id = f.client_request_id
     LEFT JOIN first_final fi ON fi.ledger = f.ledger AND fi.client_request_id = f.client_request_id
     LEFT JOIN open_hold oh ON oh.ledger = f.ledger AND oh.client_request_id = f.client_request_id;`;

/**
 * Migration 11: spend_entry_refresh as migration 5 made it, but for where it reads the entry's own events. A
 * session keeps the plan of a function's statement from its sixth call on; one made while energy.spend_event
 * was nearly empty (a new ledger, the table not yet analyzed) took the index on (ledger, at_ms) and read every
 * event of the ledger for each event added, for as long as the session lived: settling a cycle's 500 outcomes
 * took about a second beside 6,000 events, four times what it took in a session planned later, and the
 * reservations' writes under the ledger's row lock grew with the ledger too. Those reads are now planned at
 * each call (EXECUTE, the table as it is then), the events read once into an array, and the entry made from it.
 */
export const SPEND_ENTRY_PLANNED = `
CREATE OR REPLACE FUNCTION energy.spend_entry_refresh(l text, id text) RETURNS void LANGUAGE plpgsql AS $f$
   DECLARE
     present boolean;
     evs energy.spend_event[];
   BEGIN
     EXECUTE 'SELECT EXISTS (SELECT 1 FROM energy.spend_event WHERE ledger = $1 AND client_request_id = $2)'
       INTO STRICT present USING l, id;
     IF NOT present THEN
       DELETE FROM energy.spend_entry WHERE ledger = l AND client_request_id = id;
       RETURN;
     END IF;
     -- The entry's row first, locked: another transaction changing the same entry is waited for, then seen
     -- (the events are read after it).
     INSERT INTO energy.spend_entry (ledger, client_request_id) VALUES (l, id) ON CONFLICT DO NOTHING;
     PERFORM 1 FROM energy.spend_entry WHERE ledger = l AND client_request_id = id FOR UPDATE;
     EXECUTE 'SELECT array_agg(e ORDER BY e.seq) FROM energy.spend_event e WHERE ledger = $1 AND client_request_id = $2'
       INTO STRICT evs USING l, id;
     WITH ev AS (
       SELECT * FROM unnest(evs)
     ), first_order AS (
       SELECT order_id, total_trx, at_ms FROM ev WHERE kind = 'order' ORDER BY seq LIMIT 1
     ), first_final AS (
       SELECT state FROM ev WHERE kind = 'final' ORDER BY seq LIMIT 1
     ), open_hold AS (
       SELECT max(h.total_trx) AS total_trx, max(h.at_ms) AS at_ms FROM ev h
        WHERE h.kind = 'hold'
          AND NOT EXISTS (SELECT 1 FROM ev d WHERE d.kind = 'drop' AND d.holder = h.holder AND d.seq > h.seq)
     )
     UPDATE energy.spend_entry SET
       address = (SELECT address FROM ev WHERE kind IN ('hold', 'order') AND address IS NOT NULL ORDER BY seq LIMIT 1),
       key_id = (SELECT key_id FROM ev WHERE kind = 'hold' AND key_id IS NOT NULL ORDER BY seq LIMIT 1),
       order_id = (SELECT order_id FROM first_order),
       final_state = (SELECT state FROM first_final),
       amount = CASE WHEN (SELECT state FROM first_final) IS NOT DISTINCT FROM 'refunded' THEN NULL
                     WHEN EXISTS (SELECT 1 FROM first_order) THEN (SELECT total_trx FROM first_order)
                     ELSE (SELECT total_trx FROM open_hold) END,
       at_ms = COALESCE((SELECT at_ms FROM first_order), (SELECT at_ms FROM open_hold)),
       damaged_seq = (SELECT min(seq) FROM ev WHERE
         (kind IN ('hold', 'order') AND (total_trx IS NULL OR total_trx < 0 OR address IS NULL))
         OR (kind = 'hold' AND (holder IS NULL OR key_id IS NULL OR origin IS NULL))
         OR (kind = 'order' AND order_id IS NULL)
         OR (kind = 'drop' AND holder IS NULL)
         OR (kind = 'final' AND state IS NULL))
     WHERE ledger = l AND client_request_id = id;
   END $f$;`;
