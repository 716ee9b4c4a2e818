/**
 * 16 quotes and 16 order creations at once, all reading one profile, with the server clock 15 minutes
 * ahead so that every run corrects its clock and rewrites the offset file at the same moment.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { ADDRESS, createWorld, type World } from '../helpers/world.js';

let world: World;
let profileEnv: Record<string, string>;
beforeAll(async () => {
  // No rate limit: 32 simultaneous 401s would otherwise (rightly) trip the sandbox's auth-failure lockout.
  world = await createWorld({ rateLimit: false });
  profileEnv = { ...baseEnv(world.configDir), ENERGY_PROFILE: 'par' };
  const set = (args: string[], input?: string) =>
    runCli(['config', 'set', ...args], { env: profileEnv, ...(input && { input }) });
  await set(['base-url', world.sandbox.url]);
  await set(['api-key', world.sandbox.apiKey]);
  await set(['api-secret'], world.sandbox.apiSecret);
  // Activate the address first: otherwise the first delivered order removes the activation fee mid-run,
  // and a later run of the shared id would (rightly) get 409 for a different expected total.
  const activation = await runCli(['order', 'create', ADDRESS, '--energy', '1000', '--hours', '1', '--yes', '--wait'], {
    env: profileEnv,
  });
  expect(activation.code, activation.stderr).toBe(0);
  world.sandbox.setClockOffset(900);
});
afterAll(async () => world.close());

it('runs 32 processes at once without a corrupted file, a lost offset or a doubled order', async () => {
  const configBefore = readFileSync(join(world.configDir, 'config.json'), 'utf8');
  const quotes = Array.from({ length: 16 }, () => ['quote', ADDRESS, '--energy', '65000', '--hours', '1', '--json']);
  const orders = Array.from({ length: 16 }, (_, i) => [
    'order',
    'create',
    ADDRESS,
    '--energy',
    '65000',
    '--hours',
    '3',
    '--yes',
    '--json',
    // Four of them share one id: exactly one order may come of those four.
    '--client-request-id',
    i < 4 ? 'parallel-same' : `parallel-${i}`,
  ]);
  const results = await Promise.all([...quotes, ...orders].map((args) => runCli(args, { env: profileEnv })));

  for (const result of results) {
    expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
    expect(result.code, result.stderr).toBe(0);
    JSON.parse(result.stdout);
  }
  const mine = world.sandbox.orders().filter((o) => o.client_request_id.startsWith('parallel-'));
  expect(mine).toHaveLength(13);
  expect(mine.filter((o) => o.client_request_id === 'parallel-same')).toHaveLength(1);
  // By what was bought, whatever the id: 3-hour orders to ADDRESS are exactly the 13 asked for.
  expect(world.sandbox.orders().filter((o) => o.address === ADDRESS && o.duration_hours === 3)).toHaveLength(13);

  expect(readFileSync(join(world.configDir, 'config.json'), 'utf8')).toBe(configBefore);
  const offsets = JSON.parse(readFileSync(join(world.configDir, 'clock-offset.json'), 'utf8')) as Record<
    string,
    { offset_seconds: number }
  >;
  expect(Math.abs(offsets[world.sandbox.url]!.offset_seconds - 900)).toBeLessThanOrEqual(1);
}, 120_000);
