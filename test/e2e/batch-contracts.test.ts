/**
 * `order batch` refuses contract receivers as `order create` and `quote` do: USDT's contract as a bad line
 * (no request to quote, order or node), any other contract by the TRON node's getaccount when one is
 * configured; the whole batch is refused naming the line, before any quote, like every other bad line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, expectNoStackTrace, freshAddress } from '../helpers/e2e.js';
import { createWorld, type World } from '../helpers/world.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONTRACT = freshAddress(9601);
const QUOTES = '/v1/energy/quotes';
let world: World;
beforeAll(async () => {
  world = await createWorld({ tronAccounts: { [CONTRACT]: { contract: true } } });
});
afterAll(async () => world.close());

function counts() {
  return {
    quotes: world.sandbox.requestCount(QUOTES),
    orders: world.sandbox.orders().length,
    tron: world.sandbox.tronRequests().length,
  };
}

async function batch(lines: string[], env: Record<string, string> = {}) {
  const before = counts();
  const input = `address,energy,hours\n${lines.map((address) => `${address},65000,1`).join('\n')}\n`;
  const result = await world.run(['order', 'batch', '-', '--format', 'csv', '--yes'], {
    env: { ...world.env, ...env },
    input,
  });
  const after = counts();
  expectNoStackTrace(result);
  return {
    ...result,
    quotes: after.quotes - before.quotes,
    orders: after.orders - before.orders,
    tron: after.tron - before.tron,
  };
}

describe('order batch and contract receivers', () => {
  it("USDT's contract on line 3: exit 2 naming the line, no quote, no order, no node request", async () => {
    const result = await batch([freshAddress(9602), USDT], { ENERGY_TRON_NODE: world.sandbox.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`stdin, line 3: ${USDT} is a smart contract`);
    expect(result.stderr).toContain('hint: rent energy for the address that sends the transactions');
    expect([result.quotes, result.orders, result.tron]).toEqual([0, 0, 0]);
  });

  it('a contract the configured node types as such: exit 2 naming the line, before any quote or order', async () => {
    const plain = freshAddress(9603);
    const result = await batch([plain, CONTRACT, plain], { ENERGY_TRON_NODE: world.sandbox.url });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`stdin, line 3: ${CONTRACT} is a smart contract`);
    expect([result.quotes, result.orders]).toEqual([0, 0]);
    // One getaccount per distinct address at most.
    expect(result.tron).toBeLessThanOrEqual(2);
  });

  it('no TRON node configured: the node is not asked, and the batch goes on (only USDT is known)', async () => {
    const result = await batch([CONTRACT]);
    expect(result.tron).toBe(0);
    expect(result.quotes).toBe(1);
  });

  it('a configured node that cannot be reached: said once, and the batch goes on', async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    const result = await batch([freshAddress(9604), freshAddress(9605)], {
      ENERGY_TRON_NODE: down,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.match(/could not check whether the batch's addresses are contract accounts/g)).toHaveLength(1);
    expect(result.orders).toBe(2);
  });
});
