/**
 * What a stateful command sends to the shared state on opening (issue 48): each round trip is a wait on the
 * network, paid on every call a script makes. Counted at the server, from its own log (log_statement = all,
 * each line prefixed with the session's application name): one line per Query message (a simple query, however
 * many statements it holds) or per execute of the extended protocol. On a private cluster over its socket.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { bouncerForSuite, pgbouncerBin } from '../helpers/pgbouncer.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { SCHEMA_VERSION } from '../../src/state/pg/pg-schema.js';
import { connectPool } from '../../src/state/pg/pg-connect.js';
import { readStateUrl } from '../../src/config/state-url.js';

const bin = postgresBin();
const bouncer = pgbouncerBin();

/** Every statement in the server's log, each line prefixed with its session's application name. */
function logEveryStatement(sql: (query: string) => string): void {
  sql("ALTER SYSTEM SET log_statement = 'all'");
  sql("ALTER SYSTEM SET log_line_prefix = '%a|'");
  sql('SELECT pg_reload_conf()');
}

/** The statements energy's sessions sent while `run` ran, as the server (its log in `dir`) logged them. */
function statementsAt(dir: () => string) {
  const log = () => readFileSync(join(dir(), 'log'), 'utf8');
  return async (run: () => Promise<unknown>): Promise<string[]> => {
    const before = log().length;
    await run();
    return log()
      .slice(before)
      .split(/\n(?=[^\n]*\|[A-Z]+: {2})/) // an entry, with the lines of a statement written over several
      .filter((entry) => entry.startsWith('energy/') && /^[^\n]*\|LOG: {2}(statement|execute [^:]*):/.test(entry));
  };
}
describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'round trips to the shared state', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);
  const host = () => ({
    ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
    ENERGY_TRON_NODE: world.sandbox.url,
    ...cluster.current.env,
  });
  const statementsOf = statementsAt(() => cluster.current.socketDir);

  it('order pending on a current schema: the settings check and the schema version in one round trip, 3 in all', async () => {
    logEveryStatement(cluster.current.sql);
    const first = await world.run(['order', 'pending', '--json'], { env: host() }); // creates the schema
    expect(first.code, first.stderr).toBe(0);
    let result: Awaited<ReturnType<typeof world.run>> | undefined;
    const statements = await statementsOf(async () => {
      result = await world.run(['order', 'pending', '--json'], { env: host() });
    });
    expect(result?.code, result?.stderr).toBe(0);
    // The check of the limits and the schema's version, sent together.
    expect(statements[0]).toMatch(/FROM pg_settings[^]*; SELECT max\(version\) AS version FROM energy\.schema_version/);
    expect(statements, statements.join('\n')).toHaveLength(3);
  }, 60_000);

  it('a schema newer than this energy still refused on opening, with its message, after that one round trip', async () => {
    const sql = (query: string) => cluster.current.sql(query);
    const newer = SCHEMA_VERSION + 1;
    sql(`INSERT INTO energy.schema_version (version, applied_by) VALUES (${newer}, 'a newer energy')`);
    let result: Awaited<ReturnType<typeof world.run>> | undefined;
    try {
      const statements = await statementsOf(async () => {
        result = await world.run(['order', 'pending', '--json'], { env: host() });
      });
      expect(statements, statements.join('\n')).toHaveLength(1);
    } finally {
      sql(`DELETE FROM energy.schema_version WHERE version = ${newer}`);
    }
    expect(result?.code, result?.stderr).toBe(11);
    expect(result?.stderr).toContain(`schema is at version ${newer}, written by a newer energy`);
  }, 60_000);
});

describeWhere(
  'PostgreSQL and pgbouncer',
  bin !== undefined && bouncer !== undefined,
  'round trips to the shared state through PgBouncer (transaction mode, refusing startup options)',
  () => {
    const world = worldForSuite({ rateLimit: false });
    const cluster = clusterForSuite(bin);
    const through = bouncerForSuite(bouncer, cluster);
    const statementsOf = statementsAt(() => cluster.current.socketDir);

    it('order pending: a statement without parameters, its transaction and its limits in one round trip', async () => {
      logEveryStatement(cluster.current.sql);
      const env = () => ({
        ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
        ENERGY_TRON_NODE: world.sandbox.url,
        ...through.current.env,
      });
      const first = await world.run(['order', 'pending', '--json'], { env: env() }); // creates the schema
      expect(first.code, first.stderr).toBe(0);
      let result: Awaited<ReturnType<typeof world.run>> | undefined;
      const statements = await statementsOf(async () => {
        result = await world.run(['order', 'pending', '--json'], { env: env() });
      });
      expect(result?.code, result?.stderr).toBe(0);
      // PgBouncer's own SET application_name, sent for the client to the server session it lends, aside: the
      // schema's version; the origins note with its parameters (BEGIN and the limits, it, COMMIT); the select.
      const sent = statements.filter((entry) => !/statement: SET application_name=/.test(entry));
      expect(sent, sent.join('\n')).toHaveLength(5);
      expect(sent[4]).toMatch(/statement: BEGIN; SET LOCAL statement_timeout = [^]*; SELECT [^]*; COMMIT\s*$/);
    }, 60_000);

    it('that one round trip carries the limits, and a statement that fails in it leaves the session usable', async () => {
      const env = through.current.env;
      const { pool } = await connectPool(readStateUrl(env.ENERGY_STATE_URL!), env);
      try {
        // Through PgBouncer refusing startup options, the limits come with each transaction alone (else '0').
        const { rows } = await pool.query<{ limit: string }>("SELECT current_setting('statement_timeout') AS limit");
        expect(rows).toEqual([{ limit: '30s' }]);
        await expect(pool.query('SELECT 1/0')).rejects.toMatchObject({ code: '22012' });
        // The same session (the pool's one), its aborted transaction rolled back: else 25P02 here.
        const again = await pool.query<{ two: number }>('SELECT 2 AS two');
        expect(again.rows).toEqual([{ two: 2 }]);
        expect(pool.totalCount).toBe(1);
      } finally {
        await pool.end();
      }
    }, 60_000);
  },
);
