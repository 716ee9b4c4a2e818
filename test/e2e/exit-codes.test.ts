import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/app/main.js';
import type { Terminal } from '../../src/output/terminal.js';
import { SANDBOX_FAILING_ADDRESS } from '../../src/sandbox/index.js';
import type { CliResult } from '../helpers/cli.js';
import { STACK_FRAME, deadUrl, expectNoStackTrace } from '../helpers/e2e.js';
import { ADDRESS } from '../helpers/world.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();

const QUOTE = ['quote', ADDRESS, '--energy', '65000', '--hours', '1'] as const;

/**
 * Every failure below is expected: it must say what went wrong on stderr, in an `energy: error:` line, without a
 * stack trace (progress lines may come before it). Checking the message keeps a test from passing on some other failure with the same code.
 */
function expectFailure(result: CliResult, code: number, message: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  const line = result.stderr.split('\n').find((text) => text.startsWith('energy: error: '));
  expect(line, result.stderr).toMatch(message);
  expectNoStackTrace(result);
}

describe('exit 0', () => {
  it('is the status of a successful command', async () => {
    const result = await world.run(['time', '--json']);
    expect(result.code).toBe(0);
  });
});

describe('exit 2: usage or invalid input', () => {
  it('for bad input caught locally, with nothing sent', async () => {
    const before = world.sandbox.requestCount();
    const result = await world.run(['quote', 'not-an-address', '--energy', '65000', '--hours', '1']);
    expectFailure(result, 2, /not a TRON address: wrong length/);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('for an unknown command', async () => {
    expectFailure(await world.run(['balanse']), 2, /unknown command 'balanse'/);
  });

  it("for the API's 400", async () => {
    const before = world.sandbox.requestCount('/v1/energy/quotes');
    const result = await world.run(['quote', ADDRESS, '--energy', '65500', '--hours', '1']);
    expectFailure(result, 2, /POST \/v1\/energy\/quotes failed: VALIDATION_FAILED: .*energy/);
    expect(world.sandbox.requestCount('/v1/energy/quotes')).toBe(before + 1);
  });

  describe("the API's 413", () => {
    const tiny = worldForSuite({ bodyLimitBytes: 10 });

    it('for a body larger than the server takes', async () => {
      const result = await tiny.run([...QUOTE]);
      expectFailure(result, 2, /POST \/v1\/energy\/quotes failed: .*(413|PAYLOAD_TOO_LARGE)/);
      expect(result.stderr).toMatch(/413|PAYLOAD_TOO_LARGE/);
      expect(tiny.sandbox.requestCount('/v1/energy/quotes')).toBeGreaterThan(0);
    });
  });
});

describe('exit 3: authentication', () => {
  it('when there are no credentials, with nothing sent', async () => {
    const before = world.sandbox.requestCount();
    const result = await world.run(['balance'], { env: { ENERGY_API_KEY: undefined, ENERGY_API_SECRET: undefined } });
    expectFailure(result, 3, /^energy: error: no API credentials$/);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it("for the API's 401 (wrong secret)", async () => {
    const before = world.sandbox.requestCount('/v1/balance');
    const result = await world.run(['balance'], { env: { ENERGY_API_SECRET: 'not-the-secret-of-this-sandbox' } });
    expectFailure(result, 3, /GET \/v1\/balance failed: AUTH_\w+/);
    expect(world.sandbox.requestCount('/v1/balance')).toBeGreaterThan(before);
  });
});

describe('exit 4: not found', () => {
  it("for the API's 404", async () => {
    expectFailure(
      await world.run(['order', 'get', '00000000-0000-4000-8000-000000000000']),
      4,
      /GET \/v1\/energy\/orders\/0{8}-.* failed: \w*NOT_FOUND/,
    );
  });
});

describe('exit 5: conflict or refused price', () => {
  it("for the API's 409", async () => {
    world.sandbox.setIntake(false);
    try {
      expectFailure(await world.run([...QUOTE]), 5, /POST \/v1\/energy\/quotes failed: INTAKE_DISABLED/);
    } finally {
      world.sandbox.setIntake(true);
    }
  });

  it('when the quote is above --max-total', async () => {
    const orders = world.sandbox.requestCount('/v1/energy/orders');
    const result = await world.run(['order', 'create', ...QUOTE.slice(1), '--yes', '--max-total', '0.000001']);
    expectFailure(result, 5, /the total \d+\.\d{6} TRX is above --max-total 0\.000001: no order was placed/);
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(orders);
  });
});

describe('exit 6: rate limited', () => {
  it('when 429 persists after the retries', async () => {
    const before = world.sandbox.requestCount('/v1/balance');
    world.sandbox.inject({ kind: 'status', status: 429, retryAfter: '0', times: 10, match: { path: '/v1/balance' } });
    try {
      const result = await world.run(['balance', '--retries', '1']);
      expectFailure(result, 6, /GET \/v1\/balance failed: RATE_LIMITED/);
      // The first attempt and one retry.
      expect(world.sandbox.requestCount('/v1/balance')).toBe(before + 2);
    } finally {
      world.sandbox.clearFaults();
    }
  });
});

describe('exit 7: service or network', () => {
  it('for a persistent 503', async () => {
    world.sandbox.inject({ kind: 'status', status: 503, times: 10, match: { path: '/v1/balance' } });
    try {
      expectFailure(await world.run(['balance', '--retries', '0']), 7, /GET \/v1\/balance failed: \w+: /);
    } finally {
      world.sandbox.clearFaults();
    }
  });

  it('for a connection refused by a closed loopback port', async () => {
    const dead = await deadUrl();
    const result = await world.run(['balance', '--retries', '0', '--base-url', dead]);
    expectFailure(result, 7, /GET \/v1\/balance to http:\/\/127\.0\.0\.1:\d+: connection refused \(1 attempt\)/);
    expect(result.stderr).toContain(`to ${dead}: connection refused`);
  });

  it('for a timeout', async () => {
    world.sandbox.inject({ kind: 'delay', ms: 3000, match: { path: '/v1/balance' } });
    try {
      expectFailure(
        await world.run(['balance', '--retries', '0', '--timeout', '0.5']),
        7,
        /GET \/v1\/balance to .*: timed out after 500ms/,
      );
    } finally {
      world.sandbox.clearFaults();
    }
  });

  it('for a response that is not what the spec says (an HTML page)', async () => {
    world.sandbox.inject({
      kind: 'raw',
      status: 200,
      contentType: 'text/html',
      body: '<html><body>Bad gateway, but friendly</body></html>',
      match: { path: '/v1/balance' },
    });
    try {
      const result = await world.run(['balance']);
      expectFailure(
        result,
        7,
        /GET \/v1\/balance answered HTTP 200 with text\/html, not application\/json \(an HTML page/,
      );
      expect(result.stdout).toBe('');
    } finally {
      world.sandbox.clearFaults();
    }
  });
});

describe('exit 8: the order ended in failure', () => {
  it('with --wait on an order that fails', async () => {
    const result = await world.run(orderCreateArgs(SANDBOX_FAILING_ADDRESS, '--yes', '--wait'));
    expectFailure(result, 8, /^energy: error: order [0-9a-f-]{36} failed: \w+: /);
  });
});

describe('exit 1: an internal error (a bug)', () => {
  let configDir: string;
  beforeAll(() => {
    configDir = mkdtempSync(join(tmpdir(), 'energy-e2e-internal-'));
  });
  afterAll(() => rmSync(configDir, { recursive: true, force: true }));

  async function runWithBrokenStdout(argv: string[]): Promise<{ code: number; stderr: string }> {
    const stdout = new Writable({ write: (_chunk, _encoding, done) => done() });
    stdout.write = () => {
      throw new Error('stdout exploded');
    };
    const errors: string[] = [];
    const stderr = new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        errors.push(chunk.toString());
        done();
      },
    });
    const terminal: Terminal = {
      stdout,
      stderr,
      stdin: Readable.from([]),
      env: { ENERGY_CONFIG_DIR: configDir, NO_COLOR: '1' },
    };
    const code = await run(argv, terminal);
    return { code, stderr: errors.join('') };
  }

  it('resolves to 1 and says "internal error" on stderr, without a stack trace', async () => {
    const result = await runWithBrokenStdout(['config', 'path']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('internal error');
    expect(result.stderr).toContain('stdout exploded');
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });
});
