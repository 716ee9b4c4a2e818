/**
 * The --max-spend ledger's events as rows of energy.spend_event, and back: one insert for any number of
 * them (arrays unnested), each added once (by its event id), each entry's row made again by the schema's
 * trigger in the same statement. An outcome is inserted only where the ledger has the entry's hold or order,
 * in the same statement: settling many orders is one statement.
 */
import type { PoolClient } from 'pg';
import type { FinalState, StoredEvent } from '../../journal/spend-ledger.js';

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
export type EventRow = Record<Field, string | null> & { seq: string };

export const SELECT_EVENTS = `SELECT seq::text, ${FIELDS.map(([name]) => (name === 'total_trx' ? 'total_trx::text' : name === 'at_ms' ? 'at_ms::text' : name)).join(', ')}`;

function columnsOf(event: StoredEvent): Record<Field, string | null> {
  const row = Object.fromEntries(FIELDS.map(([name]) => [name, null])) as Record<Field, string | null>;
  for (const [name, value] of Object.entries(event))
    if (name in row) row[name as Field] = value === null ? null : String(value);
  row.client_request_id = 'id' in event ? event.id : '';
  return row;
}

/** A row as an event, as it stands (checked by the caller: a damaged row is named, never read as nothing). */
export function eventOfRow(row: EventRow): StoredEvent {
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
      return { ...base, kind: 'final', state: row.state as FinalState, note: row.note };
  }
}

/** Inserts the events in one statement; how many were new. */
export async function insertEvents(
  client: Pick<PoolClient, 'query'>,
  ledger: string,
  host: string,
  events: readonly StoredEvent[],
  { knownFinals }: { knownFinals: boolean },
): Promise<number> {
  if (events.length === 0) return 0;
  // By entry (each entry's own events in their order): the trigger locks each entry's row as it goes, and
  // two batches that take them in one order cannot deadlock.
  const rows = events
    .map(columnsOf)
    .map((row, index) => ({ row, index }))
    .sort((a, b) =>
      a.row.client_request_id! < b.row.client_request_id!
        ? -1
        : a.row.client_request_id! > b.row.client_request_id!
          ? 1
          : a.index - b.index,
    )
    .map(({ row }) => row);
  const arrays = FIELDS.map(([name]) => rows.map((row) => row[name]));
  const known = knownFinals
    ? `WHERE u.kind <> 'final' OR EXISTS (SELECT 1 FROM energy.spend_event x
         WHERE x.ledger = $1 AND x.client_request_id = u.client_request_id AND x.kind IN ('hold', 'order'))`
    : '';
  const { rowCount } = await client.query(
    `INSERT INTO energy.spend_event (ledger, host, ${FIELDS.map(([name]) => name).join(', ')})
     SELECT $1, $2, u.* FROM unnest(${FIELDS.map(([, type], index) => `$${index + 3}::${type}[]`).join(', ')})
       AS u(${FIELDS.map(([name]) => name).join(', ')})
     ${known}
     ON CONFLICT (ledger, event_id) DO NOTHING`,
    [ledger, host, ...arrays],
  );
  return rowCount ?? 0;
}
