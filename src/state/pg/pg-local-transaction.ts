/**
 * Local mode (pg-connect.ts): where the server refuses or drops the startup options that carry the time limits
 * (PgBouncer), each transaction sets them with SET LOCAL, and a statement run outside a transaction runs in one
 * of its own. `begin`: the SET LOCAL statements (pg-limits.ts).
 */
import type { Pool, QueryResult } from 'pg';

/** Local mode: a statement run outside a transaction runs in one of its own, so that the limits apply. */
export function eachStatementInATransaction(pool: Pool, begin: string): void {
  pool.query = (async (text: unknown, values?: unknown) => {
    const client = await pool.connect();
    if (typeof text === 'string' && noValues(values) && !text.includes(';')) {
      // No parameters (a simple query, as pg sends one): the transaction, its limits and the statement in one simple query, one round trip
      // (a config object, so that the client's BEGIN does not add the limits a second time).
      try {
        const results = (await client.query({ text: `BEGIN; ${begin}; ${text}; COMMIT` })) as unknown as QueryResult[];
        return results[results.length - 2];
      } catch (error) {
        // A statement that failed leaves the transaction aborted: its COMMIT was never run.
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    }
    try {
      await client.query('BEGIN');
      const result = await client.query(text as string, values as unknown[]);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      // A session lost meanwhile is not queryable: the pool drops it.
      client.release();
    }
  }) as Pool['query'];
}

/** As pg decides it: no values, or none in the array, is a simple query. */
function noValues(values: unknown): boolean {
  return values === undefined || (Array.isArray(values) && values.length === 0);
}
