/**
 * `quote` and `order create` ask the configured TRON node whether the receiver is a contract account. That
 * check is a safety net: a node that refuses our key (401, or 403 as hosted nodes send it) costs a note on
 * stderr, and the quote is shown and the order placed. Counted at the sandbox, which is node and API here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoStackTrace, freshAddress } from '../helpers/e2e.js';
import { orderCreateArgs, rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const GETACCOUNT = '/wallet/getaccount';
const QUOTES = '/v1/energy/quotes';
const CONTRACT = freshAddress(9701);

const world = worldForSuite({ tronAccounts: { [CONTRACT]: { contract: true } } });
afterEach(() => world.sandbox.clearFaults());

const run = (args: string[]) =>
  world.run(args, { env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_TRON_API_KEY: 'tron-key-refused-0000' } });
const refuseKey = (status: 401 | 403) =>
  world.sandbox.inject({ kind: 'status', status, times: 10, match: { path: GETACCOUNT } });
const NOTE = /could not check whether T\w+ is a contract account \(TRON node .* answered HTTP 40[13].*\); going on/;

describe('a TRON node that refuses the key during the contract check', () => {
  it.each([401, 403] as const)('HTTP %i: quote asks the node once, notes it, and shows the quote', async (status) => {
    refuseKey(status);
    const asked = world.sandbox.requestCount(GETACCOUNT);
    const quotes = world.sandbox.requestCount(QUOTES);
    const result = await run(['quote', ...rentalArgs(freshAddress(9710 + status)), '--json']);
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(NOTE);
    expect(json(result)).toMatchObject({ energy: 65_000, duration_hours: 1 });
    expect(world.sandbox.requestCount(GETACCOUNT) - asked).toBe(1);
    expect(world.sandbox.requestCount(QUOTES) - quotes).toBe(1);
  });

  it.each([401, 403] as const)('HTTP %i: order create notes it and places the one order', async (status) => {
    refuseKey(status);
    const address = freshAddress(9720 + status);
    const result = await run(orderCreateArgs(address, '--yes', '--json'));
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(NOTE);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
  });

  it('a node that answers still refuses a contract receiver (exit 2, no quote, no order)', async () => {
    const quotes = world.sandbox.requestCount(QUOTES);
    const orders = world.sandbox.orders().length;
    const result = await run(orderCreateArgs(CONTRACT, '--yes'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/is a smart contract/);
    expect(world.sandbox.requestCount(QUOTES) - quotes).toBe(0);
    expect(world.sandbox.orders()).toHaveLength(orders);
  });
});
