/**
 * The statements of `ensure`'s claims (pg-claims.ts), each one short statement in its own transaction. Times
 * are the database's (`now()`): every host of a fleet reads the same clock.
 */

const MS = "* interval '1 millisecond'";

/** A host new to the fleet (its first cycle, or back after an outage) claims at most this share of its list at once. */
const SLICES = 8;
/** ...but never fewer than this many addresses (a short list is claimed whole). */
const MIN_SLICE = 10;

/**
 * When a host was last in touch with the fleet's database: its claims, and the lease renewals and let-gos of a
 * service still in touch (null in a row older than schema 10: its last claim).
 */
const SEEN = 'coalesce(last_seen_at, last_claim_at)';

/**
 * A service's renewal or let-go ($host, $pid) that finds it in touch (within two of its intervals) keeps it so:
 * a host whose cycle outlasts two intervals is not new to the fleet at its next claim. One out of touch longer
 * (the database was away) is new again until it claims: the let-gos it retries when the database is back do
 * not hide that. Its own row only, never waited on (a claim of the same host writes it anyway), and after the
 * claims' rows (`after`: a one-time condition on the statement's update of them), so that a renewal never holds
 * the host's row while it waits for a claim's.
 */
const touch = (host: string, pid: string, after: string) => `
  UPDATE energy.hosts SET last_seen_at = now()
  WHERE ${after} AND (host, pid) IN (
    SELECT host, pid FROM energy.hosts WHERE host = ${host} AND pid = ${pid} AND ended_at IS NULL AND every_ms > 0
      AND ${SEEN} > now() - 2 * every_ms ${MS}
    FOR UPDATE SKIP LOCKED)`;

/** A service's row that last claimed longer ago than this is gone (a host that stopped answering). */
const HOSTS_KEPT_DAYS = 7;
/** A row that said it ended (a clean stop, a finished run), and any one-shot run's, is gone this much later. */
const ENDED_KEPT_HOURS = 24;

/*
 * $1 key id, $2 addresses, $3 host, $4 token, $5 lease (ms), $6 due (ms), $7 SCHEMA_VERSION, $8 pid, $9 --every
 * (ms; 0 for one run), $10 the address list's digest, $11 a later slice of this cycle, $12 addresses this host
 * took earlier in this cycle, $13 its share at the cycle's first claim (null at that claim).
 *
 * A service takes its share of what is due, the most overdue first (pg-boss's batch): the addresses over the
 * services of this account with this very list that claimed within two intervals (a live one claims every
 * interval), a quarter more for slack. Services with other lists are not counted: each takes what is due of
 * its own. A service new to the fleet (out of touch with the database for two intervals: it starts, or the
 * database was away; a cycle that outlasts two intervals is not, its leases' renewals keep it in touch: SEEN)
 * cannot know the others yet: it claims in slices of an eighth of its list, deciding each before
 * the next, and its share is read again at each slice, by then counting the hosts that registered meanwhile,
 * never above the cycle's first (issue 47 item 2: a fleet's first cycle divides, rather than its first host
 * taking everything). One back after an outage counts the services that were live when it last claimed:
 * they come back too. A later slice does not move the host's last claim (the cycle's is its first).
 *
 * A `claimed_at` ahead of the database's clock (it stepped back) is honoured for one lease at most: such a
 * row is brought back to now, its lease cut to one (issue 44 item 6). It is never one `picked` reads (those
 * are at least `due` old), so no row is written twice by the statement.
 */
export const CLAIM = `
WITH v AS (SELECT max(version) AS version FROM energy.schema_version),
ok AS (SELECT (SELECT version FROM v) <= $7 AS ok),
me AS (SELECT ${SEEN} AS seen_at FROM energy.hosts WHERE host = $3 AND pid = $8 AND ended_at IS NULL),
share AS (
  SELECT CASE WHEN $9 = 0 THEN cardinality($2::text[]) ELSE least(coalesce($13, 2147483647), ceil(1.25 * cardinality($2::text[]) / (1 + (
    SELECT count(*) FROM energy.hosts WHERE key_id = $1 AND address_list = $10 AND every_ms > 0
      AND ended_at IS NULL AND NOT (host = $3 AND pid = $8)
      AND ${SEEN} > CASE WHEN (SELECT seen_at FROM me) < now() - 2 * $9 ${MS}
        THEN (SELECT seen_at FROM me) - 2 * $9 ${MS} ELSE now() - 2 * $9 ${MS} END)))::int) END AS n
),
sliced AS (
  SELECT $9 > 0 AND ($11 OR coalesce((SELECT seen_at FROM me) <= now() - 2 * $9 ${MS}, true)) AS sliced
),
room AS (
  SELECT greatest(0, CASE WHEN (SELECT sliced FROM sliced)
    THEN least((SELECT n FROM share) - $12, greatest(${MIN_SLICE}, ceil(cardinality($2::text[]) / ${SLICES}.0)::int))
    ELSE (SELECT n FROM share) - $12 END) AS n
),
stepped AS (
  UPDATE energy.claims c SET claimed_at = now(),
    lease_until = CASE WHEN c.lease_until IS NOT NULL THEN least(c.lease_until, now() + $5 ${MS}) END
  FROM (SELECT address FROM energy.claims WHERE key_id = $1 AND address = ANY($2::text[]) AND claimed_at > now()
        AND (SELECT ok FROM ok) FOR UPDATE SKIP LOCKED) s
  WHERE c.key_id = $1 AND c.address = s.address
),
fresh AS (
  INSERT INTO energy.claims (key_id, address, holder, token, claimed_at, lease_until)
  SELECT $1, a, $3, $4, now(), now() + $5 ${MS} FROM unnest($2::text[]) AS a WHERE (SELECT ok FROM ok)
    -- Rows there already are not counted against the limit (they are picked below, when due).
    AND NOT EXISTS (SELECT 1 FROM energy.claims e WHERE e.key_id = $1 AND e.address = a)
  -- In an order of this claim's own: hosts inserting at the same instant mostly take different addresses
  -- (a row another one is inserting is waited for, then skipped).
  ORDER BY md5(a || $4)
  LIMIT (SELECT n FROM room)
  ON CONFLICT (key_id, address) DO NOTHING
  RETURNING address, NULL::text AS prev
),
picked AS (
  SELECT address, claimed_at FROM energy.claims
  WHERE key_id = $1 AND address = ANY($2::text[]) AND (SELECT ok FROM ok)
    AND (lease_until IS NULL OR lease_until <= now()) AND claimed_at <= now() - $6 ${MS}
  ORDER BY claimed_at
  LIMIT greatest(0, (SELECT n FROM room) - (SELECT count(*) FROM fresh))
  FOR UPDATE SKIP LOCKED
),
taken AS (
  UPDATE energy.claims c SET holder = $3, token = $4, claimed_at = now(), lease_until = now() + $5 ${MS}
  FROM picked p WHERE c.key_id = $1 AND c.address = p.address
  RETURNING c.address, p.claimed_at::text AS prev
),
mine AS (SELECT address, prev FROM fresh UNION ALL SELECT address, prev FROM taken),
seen AS (
  INSERT INTO energy.hosts (host, pid, key_id, every_ms, address_list, program, last_claim_at, last_claimed,
    last_skipped, ended_at, last_seen_at)
  SELECT $3, $8, $1, $9, $10, current_setting('application_name'), now(), (SELECT count(*) FROM mine) + $12,
         cardinality($2::text[]) - (SELECT count(*) FROM mine) - $12, NULL, now()
  WHERE (SELECT ok FROM ok)
  ON CONFLICT (host, pid) DO UPDATE SET key_id = EXCLUDED.key_id, every_ms = EXCLUDED.every_ms,
    address_list = EXCLUDED.address_list,
    program = EXCLUDED.program,
    last_claim_at = CASE WHEN $11 THEN energy.hosts.last_claim_at ELSE EXCLUDED.last_claim_at END,
    last_claimed = EXCLUDED.last_claimed,
    last_skipped = EXCLUDED.last_skipped, ended_at = NULL, last_seen_at = EXCLUDED.last_seen_at
),
gone AS (
  DELETE FROM energy.hosts WHERE (SELECT ok FROM ok) AND NOT (host = $3 AND pid = $8) AND (
    last_claim_at < now() - interval '${HOSTS_KEPT_DAYS} days'
    OR ((ended_at IS NOT NULL OR every_ms = 0) AND last_claim_at < now() - interval '${ENDED_KEPT_HOURS} hours'))
)
SELECT (SELECT version FROM v) AS version, m.addresses, m.prevs, (SELECT n FROM share) AS share,
  (SELECT sliced FROM sliced) AS sliced
FROM (SELECT coalesce(array_agg(address ORDER BY address), '{}') AS addresses,
             coalesce(array_agg(prev ORDER BY address), '{}') AS prevs FROM mine) m`;

/** Who holds each skipped address, and until when: its lease, its next due time, or now (left to the others). */
export const HOLDERS = `
SELECT address, holder, greatest(lease_until, claimed_at + $3 ${MS}, now()) AS until FROM energy.claims
WHERE key_id = $1 AND address = ANY($2::text[])`;

/** $1 key id, $2 token, $3 addresses, $4 lease (ms), $5 host, $6 pid: the addresses still this claim's. */
export const RENEW = `
WITH renewed AS (
  UPDATE energy.claims SET lease_until = now() + $4 ${MS}
  WHERE key_id = $1 AND token = $2 AND address = ANY($3::text[]) RETURNING address
),
seen AS (${touch('$5', '$6', '(SELECT count(*) FROM renewed) >= 0')})
SELECT address FROM renewed`;

/*
 * $1 key id, $2 token, $3 addresses, $4 each one's claimed_at before this claim (null: no row before it), $5
 * whether this run decided it, $6 host, $7 pid. A decided address is next due an interval on; one the run did
 * not decide (a dry run, a refusal, an error before its decision) is as due as it was: its row's claimed_at put
 * back, or a row this claim made removed (issue 44 item 6).
 */
export const RELEASE = `
WITH u AS (SELECT * FROM unnest($3::text[], $4::text[], $5::boolean[]) AS u(address, prev, decided)),
kept AS (
  UPDATE energy.claims c SET lease_until = NULL,
    decided_at = CASE WHEN u.decided THEN now() ELSE c.decided_at END,
    claimed_at = CASE WHEN u.decided THEN least(c.claimed_at, now()) ELSE u.prev::timestamptz END
  FROM u WHERE c.key_id = $1 AND c.token = $2 AND c.address = u.address AND (u.decided OR u.prev IS NOT NULL)
  RETURNING 1
),
dropped AS (
  DELETE FROM energy.claims c USING u
  WHERE c.key_id = $1 AND c.token = $2 AND c.address = u.address AND NOT u.decided AND u.prev IS NULL
  RETURNING 1
),
seen AS (${touch('$6', '$7::integer', '(SELECT count(*) FROM kept) + (SELECT count(*) FROM dropped) >= 0')})
SELECT 1`;

/** A claim's row untouched this long, and not leased, is of an address no service lists any more: removed. */
const CLAIMS_KEPT_DAYS = 8;

/**
 * The claims of addresses nobody lists any more. --every is at most 7 days, so a row still listed is claimed
 * again, and due, well before this age: removing it changes no decision. At most 10,000 rows a statement.
 */
export const PRUNE_CLAIMS = `
DELETE FROM energy.claims WHERE ctid = ANY(ARRAY(
  SELECT ctid FROM energy.claims
  WHERE claimed_at < now() - interval '${CLAIMS_KEPT_DAYS} days' AND (lease_until IS NULL OR lease_until <= now())
  LIMIT 10000))`;

/** A process that ends says so: its row is no live host's any more (`energy state status`). */
export const ENDED = `UPDATE energy.hosts SET ended_at = now() WHERE host = $1 AND pid = $2 AND ended_at IS NULL`;
