/** What the rent-or-burn figures assume, said beside them (issue 32). */
import { describe, expect, it } from 'vitest';
import { burnAssumes } from '../../../src/output/views.js';
import { spendRows } from '../../../src/output/spend-views.js';

describe('burnAssumes', () => {
  it.each([
    [1, 'the energy used once'],
    [47, 'the energy used once'],
    [
      168,
      'the energy used once; it recovers over 24 h, so this 7-day rental can serve 7 days of use (burning for them costs up to 7 times as much)',
    ],
    [
      72,
      'the energy used once; it recovers over 24 h, so this 3-day rental can serve 3 days of use (burning for them costs up to 3 times as much)',
    ],
  ])('%s h: %s', (hours, said) => {
    expect(burnAssumes(hours)).toBe(said);
  });
});

describe('spend: Saved', () => {
  it('is labelled an upper bound', () => {
    const rows = spendRows({
      since: null,
      until: null,
      total_trx: '2.600000',
      orders: 1,
      energy: 65_000,
      groups: [],
      burn_trx: '13.650000',
      saved_trx: '11.050000',
    });
    expect(rows).toContainEqual(['Saved', '11.050000 TRX']);
    expect(rows).toContainEqual([
      'Saved is',
      'an upper bound: every unit bought counted as used once (energy not used saved nothing)',
    ]);
  });
});
