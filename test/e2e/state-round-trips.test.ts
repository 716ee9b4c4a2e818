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
import { worldForSuite } from '../helpers/suite-world.js';
import { SCHEMA_VERSION } from '../../src/state/pg/pg-schema.js';

const bin = postgresBin();
describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'round trips to the shared state', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);
  const host = () => ({
    ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
    ENERGY_TRON_NODE: world.sandbox.url,
    ...cluster.current.env,
  });
  const log = () => readFileSync(join(cluster.current.socketDir, 'log'), 'utf8');
  /** The statements energy's sessions sent while `run` ran, as the server logged them. */
  const statementsOf = async (run: () => Promise<unknown>): Promise<string[]> => {
    const before = log().length;
    await run();
    return log()
      .slice(before)
      .split(/\n(?=[^\n]*\|[A-Z]+: {2})/) // an entry, with the lines of a statement written over several
      .filter((entry) => entry.startsWith('energy/') && /^[^\n]*\|LOG: {2}(statement|execute [^:]*):/.test(entry));
  };

  it('order pending on a current schema: the settings check and the schema version in one round trip, 3 in all', async () => {
    cluster.current.sql("ALTER SYSTEM SET log_statement = 'all'");
    cluster.current.sql("ALTER SYSTEM SET log_line_prefix = '%a|'");
    cluster.current.sql('SELECT pg_reload_conf()');
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
