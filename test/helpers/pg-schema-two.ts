/**
 * The state store's schema at version 2, as an energy before claims and the append-only ledger wrote it
 * (its two migrations, written out here, never taken from src/): the journal keyed by (origin, key_id,
 * client_request_id), the --max-spend ledger one row an order in energy.spend. For the tests of upgrading.
 */
export const SCHEMA_TWO_SQL = `CREATE SCHEMA energy;
CREATE TABLE energy.schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now(), applied_by text NOT NULL);
INSERT INTO energy.schema_version (version, applied_by) VALUES (1, 'old'), (2, 'old');
CREATE TABLE energy.journal (origin text NOT NULL, key_id text NOT NULL, client_request_id text NOT NULL,
  body text NOT NULL, journaled_at timestamptz NOT NULL, last_error text, outcome jsonb, host text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (origin, key_id, client_request_id));
CREATE INDEX journal_pending ON energy.journal (journaled_at) WHERE outcome IS NULL;
CREATE INDEX journal_ordered ON energy.journal (origin, key_id, journaled_at) WHERE outcome->>'kind' IN ('created', 'existing');
CREATE INDEX journal_settled ON energy.journal (updated_at) WHERE outcome IS NOT NULL;
CREATE TABLE energy.spend (origin text NOT NULL, key_id text NOT NULL, order_id text NOT NULL, address text NOT NULL,
  total_trx numeric(30, 6) NOT NULL, at_ms bigint NOT NULL, state text NOT NULL CHECK (state IN ('placed', 'kept', 'refunded')),
  PRIMARY KEY (origin, key_id, order_id));
CREATE INDEX spend_at ON energy.spend (origin, key_id, at_ms);
`;
