/** Cells of the readable tables that say what a value is, not what it defaults to. */
import { describe, expect, it } from 'vitest';
import { ensureTable, type EnsureRow } from '../../../src/output/ensure-views.js';
import { orderCells } from '../../../src/output/views.js';
import { sampleOrder } from '../../helpers/sample-order.js';

describe('order list FINAL', () => {
  it.each([
    [{ lifecycle_final: false, delivery_final: false }, 'no'],
    [{ lifecycle_final: false, delivery_final: true }, 'delivery'],
    [{ lifecycle_final: true, delivery_final: true }, 'all'],
    // A failed order that never delivered: only its lifecycle is over.
    [
      { lifecycle_final: true, delivery_final: false, failure: { code: 'DELEGATION_FAILED', message: 'm' } },
      'lifecycle',
    ],
  ])('%j is %s', (flags, final) => {
    expect(orderCells(sampleOrder(flags)).at(-1)).toBe(final);
  });
});

describe('ensure table', () => {
  const row: EnsureRow = {
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    available: 0,
    in_flight: 0,
    target: 0,
    reason: 'failed',
    to_buy: 0,
    total_trx: null,
    capped: false,
    bought: null,
    error: { message: 'the node could not estimate the transfer' },
  };

  it('shows the target of a failed --transfers row as -, not 0', () => {
    expect(ensureTable([row]).rows[0]![3]).toBe('-');
    expect(ensureTable([{ ...row, target: 65_000 }]).rows[0]![3]).toBe('65,000');
  });

  it('says bought, as the JSON reason does', () => {
    const bought = { ...row, reason: 'bought', error: null, bought: { id: 'x', status: 'pending' } };
    expect(ensureTable([bought]).rows[0]!.at(-1)).toBe('bought x (pending)');
  });

  it('shows BURN_TRX beside TOTAL_TRX, `-` when the burn price is not known', () => {
    const bought = { ...row, reason: 'bought', error: null, to_buy: 65_000, total_trx: '3.700000', bought: null };
    const withBurn = ensureTable([{ ...bought, burn_trx: '13.650000' }]);
    expect(withBurn.columns.map((column) => column.head)).toContain('BURN_TRX');
    expect(withBurn.rows[0]).toContain('13.650000');
    expect(ensureTable([bought]).rows[0]![6]).toBe('-');
  });

  it('keeps the same columns whatever a cycle found (a service into a pipe), AFTER with --wait', () => {
    const enough = { ...row, reason: 'enough', error: null, target: 65_000 };
    const bought = {
      ...row,
      reason: 'bought',
      error: null,
      to_buy: 65_000,
      total_trx: '3.700000',
      burn_trx: '6.500000',
    };
    const heads = (rows: EnsureRow[], wait = false) => ensureTable(rows, { wait }).columns.map((c) => c.head);
    const all = ['ADDRESS', 'AVAILABLE', 'IN_FLIGHT', 'TARGET', 'BUY', 'TOTAL_TRX', 'BURN_TRX', 'RESULT'];
    expect(heads([enough])).toEqual(all);
    expect(heads([bought])).toEqual(all);
    expect(heads([enough], true)).toEqual(['ADDRESS', 'AVAILABLE', 'AFTER', ...all.slice(2)]);
    expect(ensureTable([enough], { wait: true }).rows[0]![2]).toBe('-');
  });
});
