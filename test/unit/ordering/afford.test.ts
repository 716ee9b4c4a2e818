/** refuseUnaffordable at its edge: a balance equal to the total pays it, one micro-TRX less does not. */
import { describe, expect, it } from 'vitest';
import type { BalanceResponse } from '../../../src/client/types.js';
import { ConflictError } from '../../../src/domain/cli-errors.js';
import { refuseUnaffordable } from '../../../src/ordering/afford.js';

/** A client whose balance is `available`, counting the reads. */
function balanceOf(available: string) {
  const client = {
    reads: 0,
    balance(): Promise<BalanceResponse> {
      client.reads += 1;
      return Promise.resolve({ available_trx: available, held_trx: '0.000000', status: 'active' });
    },
  };
  return client;
}

const check = (total: string, more: { quoteRefused?: boolean; quotes?: number } = {}) => ({
  total,
  quoteRefused: more.quoteRefused ?? false,
  quotes: more.quotes ?? 2,
});

describe('refuseUnaffordable', () => {
  it('lets a total equal to the balance through, to the micro-TRX', async () => {
    const client = balanceOf('7.400000');
    await expect(refuseUnaffordable(client, check('7.400000'))).resolves.toBeUndefined();
    await expect(
      refuseUnaffordable(client, check('12345678901.234567')).catch((e: unknown) => e),
    ).resolves.toBeInstanceOf(ConflictError);
    expect(client.reads).toBe(2);
  });

  it('refuses a total one micro-TRX above the balance, saying both', async () => {
    const error = await refuseUnaffordable(balanceOf('7.399999'), check('7.400000')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).message).toBe('needs 7.400000 TRX, 7.399999 available: no order was placed');
  });

  it("one quote answers for the balance itself; a quote's can_afford false refuses whatever the balance says", async () => {
    const client = balanceOf('0.000000');
    await expect(refuseUnaffordable(client, check('3.700000', { quotes: 1 }))).resolves.toBeUndefined();
    expect(client.reads).toBe(0);
    const refused = refuseUnaffordable(balanceOf('100.000000'), check('3.700000', { quotes: 1, quoteRefused: true }));
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
  });
});
