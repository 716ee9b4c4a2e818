import { describe, expect, it } from 'vitest';
import { fitInOrder } from '../../../src/ordering/what-fits.js';

describe('fitInOrder', () => {
  it.each([
    {
      totals: ['2.400000', '2.400000', '2.400000'],
      available: '5.000000',
      fits: [true, true, false],
      left: '0.200000',
    },
    { totals: ['2.400000', '2.400000'], available: '4.800000', fits: [true, true], left: '0.000000' },
    { totals: ['6.000000', '1.000000'], available: '5.000000', fits: [false, true], left: '4.000000' },
    { totals: ['0.000001'], available: '0.000000', fits: [false], left: '0.000000' },
  ])('$totals from $available', ({ totals, available, fits, left }) => {
    expect(fitInOrder(totals, available)).toEqual({ fits, left });
  });
});
