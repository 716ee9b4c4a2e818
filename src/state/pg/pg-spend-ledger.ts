/**
 * `ensure --max-spend`'s ledger in PostgreSQL (energy.spend): one ceiling for every host naming the database
 * and the same API account. Amounts are numeric(30,6) in the database and text here (never a JavaScript
 * number); times are the server's `created_at` in ms. Hosts deciding for the same addresses take their
 * advisory locks first (pg-store.ts), so that a ceiling read and the orders recorded under it are one step.
 */
import type { Pool } from 'pg';
import type { JournalScope } from '../../journal/order-journal.js';
import type { SpendEntry, SpendLedger } from '../../journal/spend-ledger.js';
import { stateStoreFailure } from './pg-connect.js';

export class PgSpendLedger implements SpendLedger {
  constructor(
    private readonly pool: Pool,
    private readonly scope: JournalScope,
    private readonly url: string,
  ) {}

  async read(sinceMs: number): Promise<SpendEntry[]> {
    const { rows } = await this.#query<{
      order_id: string;
      address: string;
      total: string;
      at_ms: string;
      state: SpendEntry['state'];
    }>(
      `SELECT order_id, address, to_char(total_trx, 'FM999999999999999999990.000000') AS total, at_ms, state
         FROM energy.spend WHERE origin = $1 AND key_id = $2 AND at_ms >= $3 ORDER BY at_ms, order_id`,
      [sinceMs],
    );
    return rows.map((row) => ({
      order_id: row.order_id,
      address: row.address,
      total_trx: row.total,
      at_ms: Number(row.at_ms),
      state: row.state,
    }));
  }

  async record(entry: Omit<SpendEntry, 'state'>): Promise<void> {
    await this.#query(
      `INSERT INTO energy.spend (origin, key_id, order_id, address, total_trx, at_ms, state)
       VALUES ($1, $2, $3, $4, $5::numeric, $6, 'placed') ON CONFLICT DO NOTHING`,
      [entry.order_id, entry.address, entry.total_trx, entry.at_ms],
    );
  }

  async settle(orderId: string, state: 'kept' | 'refunded'): Promise<void> {
    await this.#query('UPDATE energy.spend SET state = $4 WHERE origin = $1 AND key_id = $2 AND order_id = $3', [
      orderId,
      state,
    ]);
  }

  async forget(beforeMs: number): Promise<void> {
    await this.#query('DELETE FROM energy.spend WHERE origin = $1 AND key_id = $2 AND at_ms < $3', [beforeMs]);
  }

  async #query<R extends object>(sql: string, params: unknown[]): Promise<{ rows: R[] }> {
    try {
      return await this.pool.query<R>(sql, [this.scope.origin, this.scope.keyId, ...params]);
    } catch (error) {
      throw stateStoreFailure(error, this.url, 'for the --max-spend ledger');
    }
  }
}
