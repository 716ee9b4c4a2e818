/** --max-spend's rule: what fits under the rolling ceiling, on the server's clock; a refunded order gives its price back. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order, QuoteResponse } from '../../../src/client/types.js';
import type { Purchase } from '../../../src/ensure/ensure-types.js';
import { newItem } from '../../../src/ensure/item.js';
import { SpendCeiling } from '../../../src/ensure/spend-ceiling.js';
import { FileSpendLedger } from '../../../src/journal/spend-ledger-file.js';
import { sampleOrder } from '../../helpers/sample-order.js';

const A = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const HOUR = 3_600_000;
// The server's clock is an hour ahead of this host's: the window is on the server's.
const T0 = Date.UTC(2026, 10, 27, 12);
const clock = { offsetMs: HOUR, nowMs: () => T0 + HOUR };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-ceiling-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function purchase(total: string): Purchase {
  return {
    item: newItem(A, 65_000, 0),
    quote: { total_trx: total } as QuoteResponse,
    need: { anchor: { periodStartMs: 0 }, windowStartMs: 0, listedSinceMs: undefined },
  };
}

const placedAt = (id: string, ms: number, fields: Partial<Order> = {}): Order =>
  sampleOrder({ id, address: A, total_trx: '3.900000', created_at: Math.floor(ms / 1000), ...fields });

describe('SpendCeiling', () => {
  it('refuses what would pass the ceiling over the window on the server clock, with what is left; a refund gives its price back', async () => {
    const ledger = new FileSpendLedger(join(dir, 'spend.json'));
    const ceiling = new SpendCeiling(
      { trx: '8.000000', windowMs: HOUR, text: '8/1h' },
      async () => ledger,
      new Set([A]),
    );
    // Two hours ago on the server's clock: out of the window. Then two within it.
    await ceiling.record(placedAt('old', T0 - HOUR + 1_000));
    await ceiling.record(placedAt('o1', T0 + 10_000));
    await ceiling.record(placedAt('o2', T0 + 20_000));
    const orders = new Map<string, Order>([
      ['o1', placedAt('o1', T0 + 10_000, { status: 'active', delivery_final: true })],
    ]);
    // o2 is still on its way at the first check.
    orders.set('o2', placedAt('o2', T0 + 20_000));
    const client = { getOrder: async (id: string) => orders.get(id)! };
    expect(await ceiling.left(clock.nowMs())).toBe('0.200000');
    const [refused] = [purchase('3.900000')];
    expect(await ceiling.fit([refused!], clock, client)).toEqual([]);
    expect(refused!.item).toMatchObject({ reason: 'spend_limit', error: { exit_code: 5 } });
    expect(refused!.item.error!.message).toBe(
      "3.900000 TRX would pass --max-spend 8/1h: 0.200000 TRX left of 8.000000 (orders since 2026-11-27T12:00:00Z on the API's clock): not ordered",
    );
    // o2 failed at delivery since: read again before refusing, it gives its 3.900000 back.
    orders.set(
      'o2',
      placedAt('o2', T0 + 20_000, {
        status: 'failed',
        delivery_final: true,
        lifecycle_final: true,
        failure: { code: 'DELEGATION_FAILED', message: 'x' },
      }),
    );
    const next = purchase('3.900000');
    expect(await ceiling.fit([next], clock, client)).toEqual([next]);
    expect(await ceiling.left(clock.nowMs())).toBe('4.100000');
    expect(await ceiling.leftNow(T0)).toBe('4.100000');
  });
});
