/**
 * A folder --max-spend ledger's log written by a test, line by line in the file's format (a header naming the
 * ledger, one JSON event a line, each with an event id), not by the code under test: large fixtures for the
 * checkpoint and memory tests.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const A = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';

type Line = Record<string, unknown>;

const eventId = () => randomBytes(8).toString('hex');

/** Writes the log anew: its header, then the lines. */
export function writeSpendLog(path: string, ledger: string, lines: readonly Line[]): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify({ format: 'energy spend ledger', version: 2, ledger })}\n`, { mode: 0o600 });
  appendSpendLog(path, lines);
}

export function appendSpendLog(path: string, lines: readonly Line[]): void {
  appendFileSync(path, lines.map((line) => `${JSON.stringify({ ...line, event_id: eventId() })}\n`).join(''));
}

export const windowLine = (windowMs: number): Line => ({ kind: 'window', window_ms: windowMs });

export const holdLine = (id: string, at: number, total: string, holder = 'fixture'): Line => ({
  kind: 'hold',
  id,
  holder,
  address: A,
  total_trx: total,
  at_ms: at,
  key_id: 'sha256:fixture',
  origin: 'https://api.fixture.test',
});

export const orderLine = (id: string, at: number, total: string): Line => ({
  kind: 'order',
  id,
  order_id: `order-${id}`,
  address: A,
  total_trx: total,
  at_ms: at,
});

export const finalLine = (id: string, at: number, state: 'kept' | 'refunded' | 'unknown'): Line => ({
  kind: 'final',
  id,
  state,
  at_ms: at,
  note: null,
});

/** `count` orders `fill-<n>` of `total`, the nth at `startMs - n * stepMs`, each held, ordered and ended (every `refundedEvery`th refunded). */
export function settledOrders(options: {
  count: number;
  total: string;
  startMs: number;
  stepMs: number;
  refundedEvery?: number;
  prefix?: string;
}): Line[] {
  const lines: Line[] = [];
  for (let n = 0; n < options.count; n += 1) {
    const id = `${options.prefix ?? 'fill'}-${n}`;
    const at = options.startMs - n * options.stepMs;
    const refunded = options.refundedEvery !== undefined && n % options.refundedEvery === 0;
    lines.push(
      holdLine(id, at, options.total),
      orderLine(id, at, options.total),
      finalLine(id, at, refunded ? 'refunded' : 'kept'),
    );
  }
  return lines;
}
