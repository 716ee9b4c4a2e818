/**
 * The API secret must never reach stdout or stderr, in any mode, on success or failure; --verbose shows the
 * requests with the signature redacted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliResult, RunOptions } from '../helpers/cli.js';
import { freshAddress } from '../helpers/e2e.js';
import { ADDRESS, createWorld, type World } from '../helpers/world.js';
import { orderCreateArgs } from '../helpers/rental.js';

/** An HMAC-SHA256 signature in base64: 32 bytes, 44 characters, one '=' of padding. */
const SIGNATURE = /[A-Za-z0-9+/]{43}=/;
const WRONG_SECRET = 'wrong-secret-Zq8vXw2LmN4pR7tY9uB3';
/** An order id the sandbox answers with 503 for (the fault matches its path only, so concurrent runs are unaffected). */
const UNAVAILABLE_ID = '11111111-2222-4333-8444-555555555555';

let world: World;
let seededId: string;

beforeAll(async () => {
  world = await createWorld({ seedOrders: 3 });
  seededId = world.sandbox.orders()[0]!.id;
  // The profile holds the same credentials as the environment, so that config list/get have a secret to mask.
  const key = await world.run(['config', 'set', 'api-key', world.sandbox.apiKey]);
  const secret = await world.run(['config', 'set', 'api-secret'], { input: `${world.sandbox.apiSecret}\n` });
  if (key.code !== 0 || secret.code !== 0) throw new Error(`config set failed: ${key.stderr}${secret.stderr}`);
  world.sandbox.inject({
    kind: 'status',
    status: 503,
    times: 1000,
    match: { path: `/v1/energy/orders/${UNAVAILABLE_ID}` },
  });
});
afterAll(async () => world.close());

interface Case {
  name: string;
  args: (mode: number) => string[];
  code: number;
  /** What it sends: with --verbose, every request line shows, and a signed one a redacted Authorization line. */
  sends: 'nothing' | 'anonymous' | 'signed';
  options?: RunOptions;
}

const MODES = [
  ['plain', []],
  ['--verbose', ['--verbose']],
  ['--json', ['--json']],
] as const;

const CASES: Case[] = [
  { name: 'time', args: () => ['time'], code: 0, sends: 'anonymous' },
  { name: 'balance', args: () => ['balance'], code: 0, sends: 'signed' },
  { name: 'options', args: () => ['options'], code: 0, sends: 'signed' },
  { name: 'quote', args: () => ['quote', ADDRESS, '--energy', '65000', '--hours', '1'], code: 0, sends: 'signed' },
  {
    name: 'order create --yes',
    // One address per mode: a delivery to it would change the next run's price.
    args: (mode) => orderCreateArgs(freshAddress(9000 + mode), '--yes'),
    code: 0,
    sends: 'signed',
  },
  { name: 'order list', args: () => ['order', 'list', '--limit', '3'], code: 0, sends: 'signed' },
  { name: 'order get', args: () => ['order', 'get', seededId], code: 0, sends: 'signed' },
  { name: 'config list', args: () => ['config', 'list'], code: 0, sends: 'nothing' },
  { name: 'config get api-secret', args: () => ['config', 'get', 'api-secret'], code: 0, sends: 'nothing' },
  {
    name: 'balance with credentials from the profile only',
    args: () => ['balance'],
    code: 0,
    sends: 'signed',
    options: { env: { ENERGY_API_KEY: undefined, ENERGY_API_SECRET: undefined } },
  },
  {
    name: 'a 401 failure (wrong secret)',
    args: () => ['balance'],
    code: 3,
    sends: 'signed',
    options: { env: { ENERGY_API_SECRET: WRONG_SECRET } },
  },
  { name: 'a 503 failure', args: () => ['order', 'get', UNAVAILABLE_ID, '--retries', '0'], code: 7, sends: 'signed' },
];

const RUNS = CASES.flatMap((c) =>
  MODES.map(([mode, flags], index) => [`${c.name} (${mode})`, { ...c, flags, index }] as const),
);

describe('the api secret never shows', () => {
  it.for(RUNS)('%s', async ([, { args, flags, index, code, sends, options }], { expect: local }) => {
    const result: CliResult = await world.run([...args(index), ...flags], options);
    local(result.code, result.stderr).toBe(code);
    const output = result.stdout + result.stderr;
    local(output).not.toContain(world.sandbox.apiSecret);
    local(output).not.toContain(WRONG_SECRET);
    local(output).not.toMatch(SIGNATURE);
    if (flags[0] === '--verbose') {
      if (sends !== 'nothing') local(result.stderr).toMatch(/^> (GET|POST) http:\/\/127\.0\.0\.1:\d+\/v1\//m);
      if (sends === 'signed') {
        local(result.stderr).toMatch(/^> authorization: HMAC-SHA256 \S+:\[REDACTED\]$/m);
        // The key is a credential too: --verbose shows it masked.
        local(result.stderr).not.toContain(world.sandbox.apiKey);
      }
    }
  });
});

describe('the --verbose request log', () => {
  it('names every request line and redacts each signature', async () => {
    const result = await world.run(orderCreateArgs(freshAddress(9100), '--yes', '--verbose'));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^> POST http:\/\/127\.0\.0\.1:\d+\/v1\/energy\/quotes$/m);
    expect(result.stderr).toMatch(/^> POST http:\/\/127\.0\.0\.1:\d+\/v1\/energy\/orders$/m);
    const authorizations = result.stderr.split('\n').filter((line) => /^> authorization:/i.test(line));
    // The options (read beside the quote for intake), the quote and the order.
    expect(authorizations).toHaveLength(3);
    for (const line of authorizations) expect(line).toMatch(/:\[REDACTED\]$/);
  });
});
