/**
 * `order batch` when a price rises between the quotes and the orders: the line refused for the changed price
 * is quoted again once, and placed only if the rise fits in what was consented to (`--yes`: the sum of the
 * quotes; `--max-total`: that cap). The price really moves at the sandbox, so a line placed against the rule
 * would be a real order at the new price.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { freshAddress } from '../helpers/e2e.js';
import { tempDirForSuite, worldForSuite } from '../helpers/suite-world.js';

const ORDERS = '/v1/energy/orders';
const QUOTES = '/v1/energy/quotes';
const RATE = '0.000040';
const RAISED = '0.000050';

const world = worldForSuite({ startingBalance: '100000.000000', deliverAfterMs: 60_000 });
const dir = tempDirForSuite('energy-reprice-');
afterEach(() => {
  world.sandbox.clearFaults();
  world.sandbox.setRates({ 1: RATE });
});

let next = 16_800;
interface LineResult {
  status: string;
  order: Order | null;
  error: { exit_code: number; message: string } | null;
}

/**
 * Runs a one-line batch whose order request the sandbox holds back until the test has raised the rate:
 * the quote was at the old price, the order meets the new one (409 PRICE_CHANGED), the re-quote sees it.
 */
async function batchWithRiseMidway(extra: string[]) {
  const address = freshAddress((next += 1));
  const file = join(dir.path, `${address}.csv`);
  writeFileSync(file, `address,energy,hours\n${address},65000,1\n`);
  world.sandbox.setRates({ 1: RATE });
  world.sandbox.inject({ kind: 'delay', ms: 2_000, match: { method: 'POST', path: ORDERS } });
  const posts = world.sandbox.requestCount(ORDERS);
  const quotes = world.sandbox.requestCount(QUOTES);
  const running = world.spawn(['order', 'batch', file, '--yes', '--json', '--concurrency', '1', ...extra]);
  const deadline = Date.now() + 20_000;
  while (world.sandbox.requestCount(ORDERS) === posts) {
    if (Date.now() > deadline) throw new Error('the order request never arrived');
    await sleep(5);
  }
  // The request is at the sandbox, held by the delay: it will be judged at the new price.
  world.sandbox.setRates({ 1: RAISED });
  const result = await running.result;
  const lines = result.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LineResult);
  return {
    result,
    lines,
    orders: world.sandbox.orders().filter((order) => order.address === address),
    posts: world.sandbox.requestCount(ORDERS) - posts,
    quotes: world.sandbox.requestCount(QUOTES) - quotes,
  };
}

describe('order batch: a price rise after consent', () => {
  it('beyond the sum consented to with --yes: re-quoted once, not placed, the line fails with exit 5', async () => {
    const run = await batchWithRiseMidway([]);
    expect(run.quotes).toBe(2);
    expect(run.posts).toBe(1);
    expect(run.orders).toHaveLength(0);
    expect(run.lines).toEqual([
      expect.objectContaining({
        status: 'failed',
        order: null,
        error: { exit_code: 5, message: expect.stringMatching(/beyond the total consented to: not placed/) },
      }),
    ]);
    expect(run.result.code).not.toBe(0);
  });

  it('within --max-total (positive control): re-quoted once and placed at the new price', async () => {
    const run = await batchWithRiseMidway(['--max-total', '100']);
    expect(run.result.code, run.result.stderr).toBe(0);
    expect(run.quotes).toBe(2);
    expect(run.posts).toBe(2);
    expect(run.orders).toHaveLength(1);
    expect(run.lines).toEqual([expect.objectContaining({ status: 'created' })]);
    // 65,000 energy at the raised rate, plus the activation of a fresh address, as the re-quote said.
    expect(run.lines[0]!.order!.total_trx).toBe(run.orders[0]!.total_trx);
    expect(run.orders[0]!.total_trx).toBe('4.350000');
  });
});
