/** The Resilience promises of the contract, each with its fault injected into the sandbox. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deadUrl, freshAddress, until } from '../helpers/e2e.js';
import { sampleOrder } from '../helpers/sample-order.js';
import { ADDRESS, json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();
afterEach(() => world.sandbox.clearFaults());

// A fresh address per test: a delivered order activates its address and so lowers the next quote, which
// would otherwise make a test's price depend on how fast the test before it ran.
let address = ADDRESS;
let ORDER: string[] = [];
let addressNumber = 100;
beforeEach(() => {
  address = freshAddress((addressNumber += 1));
  ORDER = ['order', 'create', address, '--energy', '65000', '--hours', '1'];
});
const ordersWith = (id: string) => world.sandbox.orders().filter((o) => o.client_request_id === id);
/** Orders for this test's address and energy, whatever their client_request_id: a duplicate cannot hide. */
const ordersHere = () => world.sandbox.orders().filter((o) => o.address === address && o.energy === 65000);

describe('retries', () => {
  it('rides out a 503 burst, telling each retry with --verbose', async () => {
    world.sandbox.inject({ kind: 'status', status: 503, times: 2, match: { path: '/v1/balance' } });
    const before = world.sandbox.requestCount('/v1/balance');
    const result = await world.run(['balance', '--json', '--verbose']);
    expect(result.code).toBe(0);
    expect(json(result)).toHaveProperty('available_trx');
    expect(world.sandbox.requestCount('/v1/balance') - before).toBe(3);
    expect(result.stderr.match(/retrying in/g)).toHaveLength(2);
  });

  it('waits as Retry-After says on 429, then succeeds', async () => {
    world.sandbox.inject({ kind: 'status', status: 429, retryAfter: '1', match: { path: '/v1/energy/options' } });
    const started = Date.now();
    const before = world.sandbox.requestCount('/v1/energy/options');
    const result = await world.run(['options', '--json', '--verbose']);
    expect(result.code).toBe(0);
    expect(world.sandbox.requestCount('/v1/energy/options') - before).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(result.stderr).toMatch(/HTTP 429; retrying in 1\.0 s/);
  });

  it('ends with exit 6 when 429 outlasts the retries', async () => {
    world.sandbox.inject({ kind: 'status', status: 429, retryAfter: '0', times: 5 });
    const before = world.sandbox.requestCount('/v1/balance');
    const result = await world.run(['balance', '--retries', '2']);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^energy: error: GET \/v1\/balance failed: RATE_LIMITED/);
    expect(world.sandbox.requestCount('/v1/balance') - before).toBe(3);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('retries a dropped connection on a quote', async () => {
    world.sandbox.inject({ kind: 'drop', match: { path: '/v1/energy/quotes' } });
    const before = world.sandbox.requestCount('/v1/energy/quotes');
    const result = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '1', '--json']);
    expect(result.code).toBe(0);
    expect(world.sandbox.requestCount('/v1/energy/quotes') - before).toBe(2);
    expect(json(result)).toHaveProperty('total_trx');
  });
});

describe('no order placed twice', () => {
  it('commits, loses the answer, retries with the same id, and reports the one order', async () => {
    world.sandbox.inject({ kind: 'drop-after-commit', match: { method: 'POST', path: '/v1/energy/orders' } });
    const before = world.sandbox.requestCount('/v1/energy/orders');
    const result = await world.run([...ORDER, '--yes', '--json', '--client-request-id', 'drop-after-commit-1']);
    expect(result.code).toBe(0);
    expect(world.sandbox.requestCount('/v1/energy/orders') - before).toBe(2);
    expect(ordersWith('drop-after-commit-1')).toHaveLength(1);
    expect(ordersHere()).toHaveLength(1);
    expect(json(result)).toMatchObject({
      client_request_id: 'drop-after-commit-1',
      id: ordersWith('drop-after-commit-1')[0]!.id,
    });
    expect(result.stderr.match(/answered 200 \(not 201 Created\) with the order/g)).toHaveLength(1);
  });

  it('when the retries run out, names the id and the command that retries safely', async () => {
    world.sandbox.inject({ kind: 'drop-after-commit', times: 2, match: { method: 'POST', path: '/v1/energy/orders' } });
    const failed = await world.run([...ORDER, '--yes', '--retries', '1', '--client-request-id', 'unknown-outcome-1']);
    expect(failed.code).toBe(7);
    expect(failed.stderr).toMatch(/client_request_id unknown-outcome-1 may or may not have been placed/);
    const command = /settle it \(this never places a second order\) with: energy (.*)$/m.exec(failed.stderr)?.[1];
    expect(command).toBe('order recover unknown-outcome-1');

    const settled = await world.run([...command!.split(' '), '--json']);
    expect(settled.code, settled.stderr).toBe(0);
    expect(json(settled)).toMatchObject({ items: [{ client_request_id: 'unknown-outcome-1', outcome: 'existing' }] });
    expect(ordersWith('unknown-outcome-1')).toHaveLength(1);
    expect(ordersHere()).toHaveLength(1);
  });

  it('re-running a timed-out order with its id returns the same order', async () => {
    world.sandbox.inject({ kind: 'delay', ms: 1500, match: { method: 'POST', path: '/v1/energy/orders' } });
    const first = await world.run([
      ...ORDER,
      '--yes',
      '--timeout',
      '0.5',
      '--retries',
      '0',
      '--client-request-id',
      'timeout-1',
    ]);
    expect(first.code).toBe(7);
    expect(first.stderr).toMatch(/timed out/);
    // The sandbox commits the order when its 1.5 s delay ends, after the client gave up.
    await until('the delayed order is committed', () => ordersWith('timeout-1').length === 1);
    const [placed] = ordersWith('timeout-1');
    const second = await world.run([
      ...ORDER,
      '--expected-total',
      placed!.total_trx,
      '--client-request-id',
      'timeout-1',
      '--json',
    ]);
    expect(second.stderr).toMatch(/answered 200 \(not 201 Created\) with the order/);
    expect(second.code).toBe(0);
    expect(ordersWith('timeout-1')).toHaveLength(1);
    expect(ordersHere()).toHaveLength(1);
  });
});

describe('an order whose outcome is in doubt is never reported as "nothing placed"', () => {
  it('keeps the doubt from an earlier attempt when a later one fails otherwise (drop, then 429)', async () => {
    world.sandbox.inject({ kind: 'drop-after-commit', match: { method: 'POST', path: '/v1/energy/orders' } });
    world.sandbox.inject({
      kind: 'status',
      status: 429,
      retryAfter: '3600',
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const result = await world.run([...ORDER, '--yes', '--client-request-id', 'doubt-429']);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/client_request_id doubt-429 may or may not have been placed/);
    expect(ordersWith('doubt-429')).toHaveLength(1);
    expect(ordersHere()).toHaveLength(1);
  });

  it('gives the profile and base URL of the run in the safe retry command', async () => {
    world.sandbox.inject({ kind: 'drop-after-commit', times: 2, match: { method: 'POST', path: '/v1/energy/orders' } });
    const result = await world.run([
      '--profile',
      'ops',
      '--base-url',
      world.sandbox.url,
      ...ORDER,
      '--yes',
      '--retries',
      '1',
      '--client-request-id',
      'doubt-globals',
    ]);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(
      `with: energy --profile ops --base-url ${world.sandbox.url} order recover doubt-globals`,
    );
  });

  it('refuses a created order that is not the one asked for, and says it may exist', async () => {
    // Another request's order (sampleOrder is the API's order shape), answered to ours.
    const stranger = sampleOrder({ client_request_id: 'someone-else', address });
    world.sandbox.inject({
      kind: 'raw',
      status: 201,
      contentType: 'application/json',
      body: JSON.stringify(stranger),
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const result = await world.run([...ORDER, '--yes', '--client-request-id', 'doubt-stranger']);
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/client_request_id is "someone-else", not "doubt-stranger"/);
    expect(result.stderr).toMatch(/may or may not have been placed/);
  });

  it('prints the placed order and says so when following it fails (--wait)', async () => {
    world.sandbox.inject({ kind: 'status', status: 503, times: 5, match: { method: 'GET' } });
    const result = await world.run([
      ...ORDER,
      '--yes',
      '--wait',
      '--json',
      '--retries',
      '0',
      '--client-request-id',
      'doubt-wait',
    ]);
    expect(result.code).toBe(7);
    const printed = json<{ id: string; client_request_id: string }>(result);
    expect(printed.client_request_id).toBe('doubt-wait');
    expect(printed.id).toBe(ordersWith('doubt-wait')[0]!.id);
    const report = JSON.parse(result.stderr.trim().split('\n').at(-1)!) as { error: { message: string; hint: string } };
    expect(report.error.message).toMatch(/was placed \(client_request_id doubt-wait\), but following it failed/);
    expect(report.error.hint).toMatch(/do not order again/);
  });
});

describe('clock skew', () => {
  it.each([
    ['15 minutes ahead', 900],
    ['15 minutes behind', -900],
  ])('works with a server clock %s, and remembers the offset for the next run', async (_label, offset) => {
    world.sandbox.setClockOffset(offset);
    try {
      const timeReads = world.sandbox.requestCount('/v1/time');
      const first = await world.run(['balance', '--json']);
      expect(first.code).toBe(0);
      // Two readings: the first, 15 minutes from this host's clock (no offset remembered), is read again.
      expect(world.sandbox.requestCount('/v1/time') - timeReads).toBe(2);
      const saved = JSON.parse(readFileSync(join(world.configDir, 'clock-offset.json'), 'utf8')) as Record<
        string,
        { offset_seconds: number }
      >;
      expect(Math.abs(saved[world.sandbox.url]!.offset_seconds - offset)).toBeLessThanOrEqual(1);

      const second = await world.run(['balance', '--json']);
      expect(second.code).toBe(0);
      expect(world.sandbox.requestCount('/v1/time') - timeReads).toBe(2);

      const shown = await world.run(['time']);
      expect(shown.stdout).toMatch(new RegExp(`Signing offset\\s+${offset > 0 ? '\\+' : '-'}(899|900|901) s`));
    } finally {
      world.sandbox.setClockOffset(0);
      await world.run(['time']);
    }
  });

  it('says so on stderr with --verbose when it corrects the clock', async () => {
    world.sandbox.setClockOffset(900);
    try {
      const result = await world.run(['balance', '--verbose']);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/the local clock is (899|900|901) s behind the server's: retrying once/);
    } finally {
      world.sandbox.setClockOffset(0);
      await world.run(['time']);
    }
  });
});

describe('responses that break the spec', () => {
  it.each([
    [
      'an HTML page from a proxy',
      200,
      'text/html',
      '<!DOCTYPE html><html><body>502 Bad Gateway</body></html>',
      /text\/html.*HTML page/,
    ],
    ['truncated JSON', 200, 'application/json', '{"available_trx":"1.000000","he', /not valid JSON/],
    [
      'a wrong content type',
      200,
      'text/plain',
      '{"available_trx":"1.000000","held_trx":"0.000000","status":"active"}',
      /text\/plain/,
    ],
    [
      'a missing required key',
      200,
      'application/json',
      '{"available_trx":"1.000000","status":"active"}',
      /held_trx is missing/,
    ],
    [
      'an amount without six digits',
      200,
      'application/json',
      '{"available_trx":"1.5","held_trx":"0.000000","status":"active"}',
      /available_trx should be an amount/,
    ],
    ['an HTML 502 page', 502, 'text/html', '<html>bad gateway</html>', /HTTP 502/],
  ])(
    '%s: exit 7, one line naming it and the status, nothing on stdout',
    async (_label, status, contentType, body, message) => {
      world.sandbox.inject({ kind: 'raw', status, contentType, body, times: 4, match: { path: '/v1/balance' } });
      const result = await world.run(['balance', '--retries', '0']);
      expect(result.code).toBe(7);
      expect(result.stdout).toBe('');
      const [line, ...rest] = result.stderr.trim().split('\n');
      expect(line).toMatch(message);
      expect(line).toMatch(new RegExp(`HTTP ${status}`));
      expect(rest.filter((l) => !l.startsWith('hint:'))).toEqual([]);
    },
  );
});

describe('timeouts', () => {
  it('gives up on a silent server within the timeout and retry budget', async () => {
    world.sandbox.inject({ kind: 'delay', ms: 10_000, times: 3, match: { path: '/v1/balance' } });
    const started = Date.now();
    const result = await world.run(['balance', '--timeout', '0.4', '--retries', '1']);
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/timed out after 400ms \(2 attempts\)/);
    expect(Date.now() - started).toBeLessThan(8_000);
  });

  it('ends quickly on a refused connection', async () => {
    const result = await world.run(['balance', '--retries', '1'], { env: { ENERGY_BASE_URL: await deadUrl() } });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/connection refused \(2 attempts\)/);
  });
});
