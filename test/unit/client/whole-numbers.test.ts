/**
 * Whole numbers on the wire: energy, hours, portions and timestamps are integers, and a number with a
 * fraction (65000.5) is a response that breaks the spec, refused naming the field, as a string is.
 */
import { describe, expect, it } from 'vitest';
import * as schema from '../../../src/client/schemas.js';
import { sampleOrder } from '../../helpers/sample-order.js';

describe('an integer field sent with a fraction', () => {
  it.each([
    ['energy', 65000.5],
    ['duration_hours', 1.5],
    ['created_at', 1764000000.25],
    ['energy', Number.POSITIVE_INFINITY],
    ['energy', Number.NaN],
  ])("an order's %s = %s: refused as not an integer", (key, value) => {
    expect(() => schema.order({ ...sampleOrder(), [key]: value }, 'order')).toThrow(/should be an integer/);
  });

  it("the options' energy_per_portion = 1000.5: refused", () => {
    const options = { energy_per_portion: 1000.5, max_energy: 5_000_000, duration_hours: [1], intake_enabled: true };
    expect(() => schema.optionsResponse(options, 'options')).toThrow(/energy_per_portion should be an integer/);
  });

  it('the same fields as whole numbers are read as sent', () => {
    const order = schema.order(sampleOrder({ energy: 65000, duration_hours: 24, created_at: 1764000000 }), 'order');
    expect(order).toMatchObject({ energy: 65000, duration_hours: 24, created_at: 1764000000 });
  });
});
