/**
 * `ensure --max-spend`'s ledger in PostgreSQL: one ceiling for every host naming the database and the same
 * ledger (an API key's account, or a `--budget`). Events are rows of energy.spend_event, inserted and never
 * updated (a state is a new event, as in the folder's log); energy.spend_ledger holds one row per ledger, with
 * the longest window any ceiling used on it. The database adds the window up (pg-spend-queries.ts): no
 * process loads the ledger, whatever it holds. A hold is one short transaction, never held across a network
 * call: the ledger's row locked (holders take turns there), the window summed, the asked ids' own events
 * read, the decision, its rows. Orders, drops and outcomes are one insert each batch, outside any lock:
 * they only ever lower what a hold counts, or turn a hold into its order. Amounts are numeric(30,6) in the
 * database and text here, never a JavaScript number.
 */
import type { Pool, PoolClient } from 'pg';
import type { StateUrl } from '../../config/state-url.js';
import { StateStoreError } from '../../domain/journal-errors.js';
import { printable } from '../../domain/printable.js';
import { SpendBook } from '../../journal/spend-book.js';
import { decideHolds } from '../../journal/spend-decide.js';
import {
  PRUNE_SLACK_MS,
  type HoldDecision,
  type HoldRequest,
  type LackingOrder,
  type OpenOrder,
  type SpendEvent,
  type SpendLedger,
  type StoredEvent,
} from '../../journal/spend-ledger.js';
import { eventLines, isStoredEvent } from '../../journal/spend-ledger-lines.js';
import type { LedgerTotals } from '../../journal/spend-totals.js';
import { stateStoreFailure } from './pg-connect.js';
import { HOLD_READ_SQL, HOLD_WRITE_SQL, LACKING_SQL, OPEN_ORDERS_SQL, WINDOW_SQL } from './pg-spend-queries.js';
import { eventOfRow, insertEvents, type EventRow } from './pg-spend-rows.js';

interface WindowRow {
  spent: string;
  entries: number;
  oldest: string | null;
  damaged_seq: string | null;
  damaged_kind: string | null;
}

/** A hold's reading (HOLD_READ_SQL): the window's, the ledger's newest event and the count's start, the asked ids' events, the origins. */
interface HoldReadRow extends WindowRow {
  newest: string | null;
  since: string;
  events: EventRow[];
  origins: string[];
}

type Query = Pick<PoolClient, 'query'>;

export class PgSpendLedger implements SpendLedger {
  constructor(
    private readonly pool: Pool,
    readonly name: string,
    private readonly url: StateUrl,
    private readonly host: string,
  ) {}

  async hold(request: HoldRequest): Promise<HoldDecision> {
    return this.#transaction('for the --max-spend ledger (nothing ordered)', async (client) => {
      // The row's lock first, in a statement of its own: what the reading below sees is taken after it, so it
      // holds every hold a holder before this one committed.
      const longest = await this.#lockRow(client);
      const ids = request.wanted.map((want) => want.id);
      // A run whose clock reads far past the API's time as the ledger's last entry and the database's clock
      // place it (a /v1/time answer days ahead) counts from there: its window then still holds what the
      // others spent. Its own entries keep its time: counted later, never earlier.
      const { rows } = await client.query<HoldReadRow>(HOLD_READ_SQL, [
        this.name,
        request.nowMs,
        request.windowMs,
        ids,
        request.keyId,
        PRUNE_SLACK_MS,
      ]);
      const read = rows[0]!;
      if (read.damaged_seq !== null) throw this.#damaged(read.damaged_seq, read.damaged_kind ?? '?');
      const newest = read.newest == null ? undefined : Number(read.newest);
      const since = Number(read.since);
      const { events, decision } = decideHolds(
        {
          sinceMs: since,
          spent: read.spent,
          oldestMs: read.oldest === null ? undefined : Number(read.oldest),
          origins: new Set(read.origins),
          longestWindowMs: longest,
        },
        this.#book(read.events),
        request,
      );
      if (request.dry === true) return decision;
      const widest = Math.max(longest, request.windowMs);
      // Never past the ledger's own newest entry less its longest window: a "now" a day past every entry is
      // a clock to read again, not a reason to forget.
      await client.query(HOLD_WRITE_SQL, [
        this.name,
        newest === undefined ? null : Math.min(request.nowMs, newest) - widest - PRUNE_SLACK_MS,
        widest > longest ? widest : null,
        request.keyId,
        decision.shortfalls.some((short) => short === undefined) ? request.origin : null,
      ]);
      await this.#insert(client, events);
      return decision;
    });
  }

  async append(events: readonly SpendEvent[], _nowMs: number): Promise<void> {
    try {
      await this.#insert(this.pool, events);
    } catch (error) {
      throw stateStoreFailure(error, this.url, 'for the --max-spend ledger');
    }
  }

  async spent(sinceMs: number): Promise<string> {
    return this.#read('to read the --max-spend ledger', async () => (await this.#window(this.pool, sinceMs)).spent);
  }

  async openOrders(sinceMs: number, keyId: string, atMost: number): Promise<OpenOrder[]> {
    return this.#read('to read the --max-spend ledger', async () => {
      const { rows } = await this.pool.query<OpenOrder>(OPEN_ORDERS_SQL, [this.name, sinceMs, keyId, atMost]);
      return rows;
    });
  }

  async lackingOrders(sinceMs: number, keyId: string, atMost: number): Promise<LackingOrder[]> {
    return this.#read('to read the --max-spend ledger', async () => {
      const { rows } = await this.pool.query<LackingOrder>(LACKING_SQL, [this.name, sinceMs, keyId, atMost]);
      return rows;
    });
  }

  async totals(nowMs: number): Promise<LedgerTotals> {
    return this.#read('to read the --max-spend ledger', async () => {
      const { rows: [row] = [] } = await this.pool.query<{ longest: string }>(
        'SELECT longest_window_ms::text AS longest FROM energy.spend_ledger WHERE ledger = $1',
        [this.name],
      );
      const longest = Number(row?.longest ?? 0);
      const window = await this.#window(this.pool, nowMs - longest);
      return { ledger: this.name, longest_window_ms: longest, entries: window.entries, spent_trx: window.spent };
    });
  }

  async has(ids: readonly string[]): Promise<Set<string>> {
    return this.#read('to read the --max-spend ledger', async () => {
      const { rows } = await this.pool.query<{ id: string }>(
        `SELECT client_request_id AS id FROM energy.spend_entry WHERE ledger = $1 AND client_request_id = ANY($2)`,
        [this.name, ids],
      );
      return new Set(rows.map((row) => row.id));
    });
  }

  /** `energy state import`: a folder ledger's events, each added once (by its id); how many were new. */
  async import(events: readonly StoredEvent[], longestWindowMs: number): Promise<number> {
    return this.#transaction('to import a --max-spend ledger', async (client) => {
      const longest = await this.#lockRow(client);
      if (longestWindowMs > longest)
        await client.query('UPDATE energy.spend_ledger SET longest_window_ms = $2 WHERE ledger = $1', [
          this.name,
          longestWindowMs,
        ]);
      const stored = events.filter((event) => event.kind !== 'window');
      await client.query(
        `INSERT INTO energy.spend_origin (ledger, key_id, origin)
         SELECT DISTINCT $1, k, o FROM unnest($2::text[], $3::text[]) AS u(k, o) ON CONFLICT DO NOTHING`,
        [
          this.name,
          ...(['key_id', 'origin'] as const).map((field) =>
            stored.flatMap((event) => (event.kind === 'hold' ? [event[field]] : [])),
          ),
        ],
      );
      return insertEvents(client, this.name, this.host, stored, { knownFinals: false });
    });
  }

  /** The ledger's row, made when new and locked for this transaction: its longest window. */
  async #lockRow(client: Query): Promise<number> {
    const { rows } = await client.query<{ longest: string }>(
      `INSERT INTO energy.spend_ledger (ledger) VALUES ($1)
       ON CONFLICT (ledger) DO UPDATE SET ledger = EXCLUDED.ledger
       RETURNING longest_window_ms::text AS longest`,
      [this.name],
    );
    return Number(rows[0]?.longest ?? 0);
  }

  async #window(client: Query, sinceMs: number): Promise<WindowRow> {
    const { rows } = await client.query<WindowRow>(WINDOW_SQL, [this.name, sinceMs]);
    const row = rows[0]!;
    if (row.damaged_seq !== null) throw this.#damaged(row.damaged_seq, row.damaged_kind ?? '?');
    return row;
  }

  /** The asked ids' own events, folded by the book's rule (a handful of rows, whatever the ledger holds). */
  #book(rows: readonly EventRow[]): SpendBook {
    const book = new SpendBook();
    for (const row of rows) {
      const event = eventOfRow(row);
      if (!isStoredEvent(event as unknown as Record<string, unknown>)) throw this.#damaged(row.seq, row.kind ?? '?');
      book.apply(event);
    }
    return book;
  }

  async #insert(client: Query, events: readonly SpendEvent[]): Promise<void> {
    await insertEvents(client, this.name, this.host, eventLines(events.filter((e) => e.kind !== 'window')).stored, {
      knownFinals: true,
    });
  }

  #damaged(seq: string, kind: string): StateStoreError {
    return new StateStoreError(
      `the --max-spend ledger ${printable(this.name, 100)} has a damaged row in the state store (energy.spend_event seq ${seq}, a ${printable(kind, 20)} event with an amount missing or below zero, or a field missing): --max-spend cannot count, nothing ordered`,
      {
        hint: `look at it (SELECT * FROM energy.spend_event WHERE seq = ${seq}); set it right, or delete it (what it held is then forgotten)`,
      },
    );
  }

  async #read<T>(doing: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw stateStoreFailure(error, this.url, doing);
    }
  }

  /** Runs `work` in one short transaction. */
  async #transaction<T>(doing: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient | undefined;
    try {
      client = await this.pool.connect();
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      return value;
    } catch (error) {
      await client?.query('ROLLBACK').catch(() => undefined);
      throw stateStoreFailure(error, this.url, doing);
    } finally {
      client?.release();
    }
  }
}
