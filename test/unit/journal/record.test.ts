/** The journal record's rules, each once: which records have an order, which bodies are orders. */
import { describe, expect, it } from 'vitest';
import {
  hasOrder,
  mayHaveOrder,
  orderBody,
  orderIdOf,
  parseRecord,
  type JournalRecord,
} from '../../../src/journal/record.js';

const BODY = {
  client_request_id: 'r-1',
  address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  energy: 65000,
  duration_hours: 1,
  expected_total_trx: '3.700000',
};
const AT = '2026-11-20T12:00:00.000Z';

function record(outcome: JournalRecord['outcome'], body: object = BODY): JournalRecord {
  return {
    version: 1,
    origin: 'https://api.example.com',
    key_id: 'sha256:0123456789abcdef',
    client_request_id: 'r-1',
    body: JSON.stringify(body),
    journaled_at: AT,
    last_error: null,
    outcome,
  };
}

describe('orderIdOf and hasOrder', () => {
  it('an order the server created, or already had (200 to a resend), is an order', () => {
    for (const kind of ['created', 'existing'] as const) {
      const settled = record({ kind, at: AT, order_id: `order-${kind}` });
      expect(orderIdOf(settled)).toBe(`order-${kind}`);
      expect(hasOrder(settled)).toBe(true);
    }
  });

  it('a pending, refused or never-sent record has none', () => {
    for (const outcome of [
      null,
      { kind: 'refused', at: AT, status: 409, code: 'CONFLICT' },
      { kind: 'not-sent', at: AT, reason: 'connection refused' },
    ] as const) {
      expect(orderIdOf(record(outcome))).toBeUndefined();
      expect(hasOrder(record(outcome))).toBe(false);
    }
  });
});

describe('mayHaveOrder', () => {
  it('a record with an order, or whose outcome is unknown, holds its id; a refused or unsent one does not', () => {
    expect(mayHaveOrder(record({ kind: 'created', at: AT, order_id: 'o' }))).toBe(true);
    expect(mayHaveOrder(record({ kind: 'existing', at: AT, order_id: 'o' }))).toBe(true);
    expect(mayHaveOrder(record(null))).toBe(true);
    expect(mayHaveOrder(record({ kind: 'refused', at: AT, status: 409, code: null }))).toBe(false);
    expect(mayHaveOrder(record({ kind: 'not-sent', at: AT, reason: 'connection refused' }))).toBe(false);
  });
});

describe('orderBody', () => {
  it('reads an order body', () => {
    expect(orderBody(JSON.stringify(BODY))).toEqual({
      address: BODY.address,
      energy: 65000,
      duration_hours: 1,
      expected_total_trx: '3.700000',
    });
  });

  it.each([
    ['energy 0', { energy: 0 }],
    ['energy below 0', { energy: -65000 }],
    ['energy not whole', { energy: 65000.5 }],
    ['energy as text', { energy: '65000' }],
    ['0 hours', { duration_hours: 0 }],
    ['a total that is not a decimal', { expected_total_trx: '3,7' }],
    ['no address', { address: undefined }],
  ])('refuses a body with %s, and a record holding it is not trusted', (_label, change) => {
    const body = { ...BODY, ...change };
    expect(orderBody(JSON.stringify(body))).toBeUndefined();
    expect(parseRecord(JSON.stringify(record(null, body)))).toBeUndefined();
  });

  it('a record with a good body parses as written', () => {
    const good = record({ kind: 'existing', at: AT, order_id: 'o-1' });
    expect(parseRecord(JSON.stringify(good))).toEqual(good);
  });
});
