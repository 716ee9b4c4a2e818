/**
 * One time convention in human output: local date-times with the offset shown, no milliseconds (`order
 * get`, `ensure --every`'s cycle lines, `spend`'s bounds, journal notes); JSON keeps ISO 8601 UTC.
 * Run under TZ=Asia/Kolkata (+05:30), so that a time left in UTC shows.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { freshAddress } from '../helpers/e2e.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const world = worldForSuite();
const env = { TZ: 'Asia/Kolkata' };
const LOCAL = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30/;

describe('human output shows local time with its offset', () => {
  it('order get, and spend with --since', async () => {
    const order = json<Order>(await world.run([...orderCreateArgs(freshAddress(31_001), '--yes'), '--json']));
    const got = await world.run(['order', 'get', order.id], { env });
    expect(got.stdout).toMatch(new RegExp(`Created +${LOCAL.source}\\n`));
    const spend = await world.run(['spend', '--since', '2020-01-01'], { env });
    expect(spend.code, spend.stderr).toBe(0);
    expect(spend.stdout).toMatch(/^Since +2020-01-01T05:30:00\+05:30$/m);
    expect(spend.stdout).not.toMatch(/\.\d{3}Z/);
    // JSON keeps ISO 8601 UTC.
    const document = JSON.parse((await world.run(['spend', '--since', '2020-01-01', '--json'], { env })).stdout);
    expect(document).toMatchObject({ since: '2020-01-01T00:00:00.000Z' });
  });

  it('the note of a resent journaled request', async () => {
    const args = [...orderCreateArgs(freshAddress(31_003), '--yes'), '--client-request-id', 'local-time-31003'];
    expect((await world.run(args, { env })).code).toBe(0);
    const again = await world.run(args, { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`was sent from this machine at ${LOCAL.source}; resending`));
  });

  it("ensure --every's cycle lines", async () => {
    const running = world.spawn(
      ['ensure', freshAddress(31_002), '--energy', '65000', '--hours', '1', '--yes', '--every', '1h'],
      { env: { ...env, ENERGY_TRON_NODE: world.sandbox.url } },
    );
    const deadline = Date.now() + 20_000;
    while (!/^ADDRESS/m.test(running.output().stdout) && Date.now() < deadline) await sleep(25);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^cycle 1 at ${LOCAL.source}$`, 'm'));
  });
});
