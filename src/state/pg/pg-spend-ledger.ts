/**
 * `ensure --max-spend`'s ledger in PostgreSQL: one ceiling for every host naming the database and the same
 * ledger (an API key's account, or a `--budget`). Events are rows of energy.spend_event, inserted and never
 * updated (a state is a new event, as in the folder's log: one rule, spend-book.ts, reads both);
 * energy.spend_ledger holds one row per ledger, with the longest window any ceiling used on it. A change is
 * one short transaction, never held across a network call: the ledger's row `FOR UPDATE` (every writer
 * waits its turn there, so that events are numbered in the order they commit), the events since this
 * host's last look, the change, its rows, and the entries no window reaches deleted. Amounts are
 * numeric(30,6) in the database and text here, never a JavaScript number.
 */
import type { Pool, PoolClient } from 'pg';
import { SpendBook } from '../../journal/spend-book.js';
import type { LedgerChange, SpendLedger, StoredEvent } from '../../journal/spend-ledger.js';
import { eventLines } from '../../journal/spend-ledger-lines.js';
import { PRUNE_SLACK_MS } from '../../journal/spend-ledger-file.js';
import { stateStoreFailure } from './pg-connect.js';

/** The columns an event fills, in the order of the arrays of an insert. */
const FIELDS = [
  ['event_id', 'text'],
  ['kind', 'text'],
  ['client_request_id', 'text'],
  ['holder', 'text'],
  ['address', 'text'],
  ['total_trx', 'numeric'],
  ['order_id', 'text'],
  ['state', 'text'],
  ['key_id', 'text'],
  ['origin', 'text'],
  ['note', 'text'],
  ['at_ms', 'bigint'],
] as const;
type Field = (typeof FIELDS)[number][0];
type Row = Record<Field, string | null> & { seq: string };

const SELECT = `SELECT seq, ${FIELDS.map(([name]) => (name === 'total_trx' ? 'total_trx::text' : name)).join(', ')}`;

function columnsOf(event: StoredEvent): Record<Field, string | null> {
  const row = Object.fromEntries(FIELDS.map(([name]) => [name, null])) as Record<Field, string | null>;
  for (const [name, value] of Object.entries(event))
    if (name in row) row[name as Field] = value === null ? null : String(value);
  row.client_request_id = 'id' in event ? event.id : '';
  return row;
}

function eventOf(row: Row): StoredEvent {
  const at_ms = Number(row.at_ms);
  const id = row.client_request_id!;
  const base = { event_id: row.event_id!, id, at_ms };
  switch (row.kind) {
    case 'hold':
      return {
        ...base,
        kind: 'hold',
        holder: row.holder!,
        address: row.address!,
        total_trx: row.total_trx!,
        key_id: row.key_id!,
        origin: row.origin!,
      };
    case 'drop':
      return { ...base, kind: 'drop', holder: row.holder! };
    case 'order':
      return { ...base, kind: 'order', order_id: row.order_id!, address: row.address!, total_trx: row.total_trx! };
    default:
      return { ...base, kind: 'final', state: row.state as 'kept' | 'refunded' | 'unknown', note: row.note };
  }
}

export class PgSpendLedger implements SpendLedger {
  #book = new SpendBook();
  /** The last event read: only later ones are read next time. */
  #seq = '0';
  /** In this process, one transaction at a time (the row lock then keeps other processes and hosts out). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    readonly name: string,
    private readonly url: string,
    private readonly host: string,
  ) {}

  async update<T>(nowMs: number, change: (book: SpendBook) => LedgerChange<T>): Promise<T> {
    return this.#transaction('for the --max-spend ledger (nothing ordered)', async (client) => {
      const { events, value } = change(this.#book);
      const widest = events.reduce((ms, event) => (event.kind === 'window' ? Math.max(ms, event.window_ms) : ms), 0);
      if (widest > 0) {
        await client.query(
          'UPDATE energy.spend_ledger SET longest_window_ms = $2 WHERE ledger = $1 AND longest_window_ms < $2',
          [this.name, widest],
        );
        this.#book.apply({ kind: 'window', window_ms: widest });
      }
      await this.#insert(client, eventLines(events.filter((event) => event.kind !== 'window')).stored);
      const longest = this.#book.longestWindowMs;
      const ids = longest === 0 ? [] : this.#book.prunable(nowMs - longest - PRUNE_SLACK_MS);
      if (ids.length > 0) {
        await client.query('DELETE FROM energy.spend_event WHERE ledger = $1 AND client_request_id = ANY($2)', [
          this.name,
          ids,
        ]);
        this.#book.forget(ids);
      }
      return value;
    });
  }

  async read(): Promise<SpendBook> {
    return this.#transaction('to read the --max-spend ledger', async () => this.#book, 'FOR SHARE');
  }

  /** `energy state import`: a folder ledger's events, each added once (by its id); how many were new. */
  async import(events: readonly StoredEvent[], longestWindowMs: number): Promise<number> {
    return this.#transaction('to import a --max-spend ledger', async (client) => {
      await client.query(
        'UPDATE energy.spend_ledger SET longest_window_ms = $2 WHERE ledger = $1 AND longest_window_ms < $2',
        [this.name, longestWindowMs],
      );
      return this.#insert(
        client,
        events.filter((event) => event.kind !== 'window'),
      );
    });
  }

  /** Runs `work` in one short transaction holding the ledger's row, after reading the events since the last look. */
  async #transaction<T>(
    doing: string,
    work: (client: PoolClient) => Promise<T>,
    lock: 'FOR UPDATE' | 'FOR SHARE' = 'FOR UPDATE',
  ): Promise<T> {
    const mine = this.#queue.catch(() => undefined).then(() => this.#once(doing, work, lock));
    this.#queue = mine;
    return mine;
  }

  async #once<T>(doing: string, work: (client: PoolClient) => Promise<T>, lock: string): Promise<T> {
    let client: PoolClient | undefined;
    try {
      client = await this.pool.connect();
      await client.query('BEGIN');
      await client.query('INSERT INTO energy.spend_ledger (ledger) VALUES ($1) ON CONFLICT DO NOTHING', [this.name]);
      const { rows } = await client.query<{ longest: string }>(
        `SELECT longest_window_ms AS longest FROM energy.spend_ledger WHERE ledger = $1 ${lock}`,
        [this.name],
      );
      this.#book.apply({ kind: 'window', window_ms: Number(rows[0]?.longest ?? 0) });
      const fresh = await client.query<Row>(
        `${SELECT} FROM energy.spend_event WHERE ledger = $1 AND seq > $2 ORDER BY seq`,
        [this.name, this.#seq],
      );
      for (const row of fresh.rows) {
        this.#book.apply(eventOf(row));
        this.#seq = row.seq;
      }
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      // What was read or applied in a transaction that did not commit is read again next time.
      this.#book = new SpendBook();
      this.#seq = '0';
      throw stateStoreFailure(error, this.url, doing);
    } finally {
      client?.release();
    }
  }

  /** Inserts the events (one statement), applies them, and moves the last event read past them. */
  async #insert(client: PoolClient, events: readonly StoredEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const rows = events.map(columnsOf);
    const arrays = FIELDS.map(([name]) => rows.map((row) => row[name]));
    const { rows: inserted } = await client.query<{ seq: string; event_id: string }>(
      `INSERT INTO energy.spend_event (ledger, host, ${FIELDS.map(([name]) => name).join(', ')})
       SELECT $1, $2, * FROM unnest(${FIELDS.map(([, type], index) => `$${index + 3}::${type}[]`).join(', ')})
       ON CONFLICT (ledger, event_id) DO NOTHING
       RETURNING seq, event_id`,
      [this.name, this.host, ...arrays],
    );
    const added = new Set(inserted.map((row) => row.event_id));
    for (const event of events) if (added.has(event.event_id)) this.#book.apply(event);
    for (const row of inserted) if (BigInt(row.seq) > BigInt(this.#seq)) this.#seq = row.seq;
    return inserted.length;
  }
}
