/**
 * Read tolerantly (the contract's Output): an order from another client on the account, with any
 * client_request_id, address or status the spec's plain `string` allows, passes; keys the spec does not name
 * are kept as sent; only what breaks meaning is refused.
 */
import { describe, expect, it } from 'vitest';
import * as schema from '../../../src/client/schemas.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const ODD_IDS = ['invoice 42', 'заказ №7 ✓', 'x'.repeat(300), 'esc\u001b[2J bel\u0007 rlo\u202e', '', ' '];

describe('an order from another client', () => {
  it.each(ODD_IDS)('takes the client_request_id %j as it is', (id) => {
    expect(schema.order(sampleOrder({ client_request_id: id }), '').client_request_id).toBe(id);
  });

  it.each(['refunded', '', 'Ω\u001b[31m', 'x'.repeat(500)])('takes the status %j', (status) => {
    expect(schema.order(sampleOrder({ status }), '').status).toBe(status);
  });

  it.each(['0x41aabb', 'T-not-base58-0OIl', 'evil\u001b[2J\u202e', ''])('takes the address %j', (address) => {
    expect(schema.order(sampleOrder({ address }), '').address).toBe(address);
  });

  it('a page with one odd order is read whole', () => {
    const items = [sampleOrder(), sampleOrder({ client_request_id: 'invoice 42', status: 'refunded' })];
    expect(schema.orderList({ items, next_cursor: null }, '').items).toHaveLength(2);
  });

  it.each([
    ['client_request_id', 42, /client_request_id should be a string/],
    ['status', null, /status should be a string/],
    ['address', ['T'], /address should be a string/],
    ['id', 'invoice 42', /id should be a UUID/],
    ['total_trx', '1.5', /total_trx should be an amount/],
    ['energy', '65000', /energy should be an integer/],
  ])('still refuses %s = %j: its meaning breaks', (key, value, error) => {
    expect(() => schema.order({ ...sampleOrder(), [key]: value }, '')).toThrow(error);
  });
});

describe('fields the spec does not name', () => {
  it('are kept, with their values and in the order sent, beside the checked ones', () => {
    const wire = { x_price_sun: 60, ...sampleOrder(), duration_hours: 1, source: { kind: 'dashboard' } };
    const parsed = schema.order(wire, '');
    expect(Object.keys(parsed)).toEqual(Object.keys(wire));
    expect(parsed).toMatchObject({ x_price_sun: 60, source: { kind: 'dashboard' } });
  });

  it('on every response: balance, options, quote, list and its items, failure, Problem Details', () => {
    const extra = { x_new: [1, 'two'] };
    const balance = schema.balanceResponse(
      { available_trx: '1.000000', held_trx: '0.000000', status: 'active', ...extra },
      '',
    );
    const options = schema.optionsResponse(
      { energy_per_portion: 1, max_energy: 2, duration_hours: ['1'], intake_enabled: true, ...extra },
      '',
    );
    const quote = schema.quoteResponse(
      {
        address: 'T',
        energy: 1,
        duration_hours: 1,
        energy_trx: '1.000000',
        activation_trx: null,
        total_trx: '1.000000',
        can_afford: true,
        ...extra,
      },
      '',
    );
    const list = schema.orderList({ items: [{ ...sampleOrder(), ...extra }], next_cursor: null, ...extra }, '');
    const problem = schema.parseProblem({ type: 't', title: 'T', status: 409, detail: 'd', code: 'C', ...extra });
    for (const value of [balance, options, quote, list, list.items[0], problem]) expect(value).toMatchObject(extra);
    // Normalised all the same: the documented type wins for a documented key.
    expect(options.duration_hours).toEqual([1]);
  });

  it('a key named __proto__ stays data: no prototype is set', () => {
    const parsed = schema.order(
      JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(sampleOrder()).slice(1)}`),
      '',
    );
    expect((parsed as unknown as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(JSON.stringify(parsed)).toContain('"__proto__":{"polluted":true}');
  });
});
