/**
 * What the user reads when something is wrong: hostile server text escaped and cut, echoed input readable,
 * and each message saying what is actually wrong (missing, too large, 0 or more, how long to wait).
 */
import { spawn } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { jsonReply, startScriptedServer, type ScriptedServer } from '../helpers/http-server.js';
import { sampleOrder } from '../helpers/sample-order.js';
import { ADDRESS, createWorld, type World } from '../helpers/world.js';

let world: World;
let server: ScriptedServer;
let serverEnv: Record<string, string>;
beforeAll(async () => {
  world = await createWorld();
  server = await startScriptedServer();
  serverEnv = { ...world.env, ENERGY_BASE_URL: server.url.origin };
});
afterAll(async () => {
  await server.close();
  await world.close();
});

const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

describe('server text reaches the terminal escaped and cut', () => {
  it('escapes control characters in Problem Details and cuts a very long detail', async () => {
    const detail = `price \u001b[2J\rchanged\u0007 ${'x'.repeat(2000)}`;
    server.script(
      jsonReply(409, {
        type: 'about:blank',
        title: 'Conflict',
        status: 409,
        detail,
        code: 'PRICE\u001b]0;owned\u0007',
        errors: [{ code: 'X', field: 'energy', message: 'bad \u001b[31mred' }],
      }),
    );
    const result = await runInProcess(['balance'], serverEnv);
    expect(result.code).toBe(5);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stderr).toContain('price \\x1b[2J\\rchanged\\x07 xxx');
    expect(result.stderr).toContain('PRICE\\x1b]0;owned\\x07');
    expect(result.stderr).toContain('energy: bad \\x1b[31mred');
    expect(result.stderr).toContain('x...'); // no locale set: ASCII
    expect(result.stderr.length).toBeLessThan(800);
  });

  it('escapes an order failure message shown in the readable output', async () => {
    const failure = { code: 'DELEGATION\u001b[1m', message: 'node said\r\u001b[2Kall good' };
    server.script(jsonReply(200, sampleOrder({ status: 'failed\u001b[0m', delivery_final: true, failure })));
    const result = await runInProcess(['order', 'get', sampleOrder().id], serverEnv);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    expect(result.stdout).toContain('DELEGATION\\x1b[1m: node said\\r\\x1b[2Kall good');
    expect(result.stdout).toContain('failed\\x1b[0m');
  });

  it('says the validation problem once, not twice', async () => {
    const result = await runInProcess(['quote', ADDRESS, '--energy', '1', '--hours', '1'], world.env);
    expect(result.code).toBe(2);
    expect(result.stderr.match(/must be between/g)).toHaveLength(1);
  });
});

describe('messages that say what is wrong', () => {
  it.each([
    ['an empty address', ['quote', '', '--energy', '65000', '--hours', '1'], 'the address is missing (empty)'],
    [
      'an address from a CRLF file',
      ['quote', `${ADDRESS}\r`, '--energy', '65000', '--hours', '1'],
      `<address> "${ADDRESS}\\r": not a TRON address: it contains a carriage return`,
    ],
    ['an energy beyond 2^53', ['quote', ADDRESS, '--energy', '9007199254740993', '--hours', '1'], 'too large'],
    ['--retries -1', ['--retries', '-1', 'balance'], '0 or more'],
    ['--retries 99', ['--retries', '99', 'balance'], 'too large: at most 10'],
    [
      'a base URL ending in /v1',
      ['--base-url', 'https://api.example.com/v1/', 'balance'],
      'ends in /v1: give it without, as https://api.example.com',
    ],
    [
      'a long amount',
      ['order', 'create', ADDRESS, '--energy', '1', '--hours', '1', '--expected-total', `1${'9'.repeat(300)}x`],
      '...": not a TRX amount: use digits',
    ],
    [
      'a word for an amount (the value said once)',
      ['order', 'create', ADDRESS, '--energy', '1', '--hours', '1', '--max-total', 'abc'],
      '--max-total "abc": not a TRX amount: use',
    ],
  ])('%s', async (_label, args, text) => {
    const before = world.sandbox.requestCount();
    const result = await runInProcess(args, world.env);
    expect(result.code).toBe(2);
    const [line] = result.stderr.split('\n');
    expect(line).toContain(text);
    expect(line).not.toMatch(RAW_CONTROL);
    expect(line!.length).toBeLessThan(300);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('says plainly that nothing is pending, without a double negative', async () => {
    const result = await runInProcess(['order', 'pending'], world.env);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'energy: nothing to settle: every order request sent from this machine has its outcome\n',
    );
  });

  it('refuses a base URL ending in /v1 in `config set` too', async () => {
    const result = await runInProcess(['config', 'set', 'base-url', `${world.sandbox.url}/v1`], world.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`ends in /v1: give it without, as ${world.sandbox.url}`);
  });

  it('says how long a server asks to wait when it is longer than we wait', async () => {
    server.script(
      jsonReply(
        429,
        { type: 'about:blank', title: 'Too Many', status: 429, detail: 'slow down', code: 'RATE_LIMITED' },
        { 'retry-after': '3600' },
      ),
    );
    const before = server.seen.length;
    const result = await runInProcess(['balance'], serverEnv);
    expect(result.code).toBe(6);
    expect(result.stderr.split('\n')[0]).toBe(
      'energy: error: GET /v1/balance failed: RATE_LIMITED: slow down; the server asks to wait 60 min, longer than the 30 s energy waits: try again later',
    );
    expect(server.seen.length - before).toBe(1);
  });

  it('says in one line that an https:// base URL reached a plain http server', async () => {
    const before = world.sandbox.requestCount();
    const result = await runInProcess(['balance'], {
      ...world.env,
      ENERGY_BASE_URL: world.sandbox.url.replace('http:', 'https:'),
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(
      /^energy: error: GET \/v1\/balance to https:\/\/127\.0\.0\.1:\d+: the server did not answer TLS; is it http:\/\/\? \(1 attempt\)\n$/,
    );
    expect(world.sandbox.requestCount()).toBe(before);
  });
});

describeWhere('/dev/full', existsSync('/dev/full'), 'standard output on a full disk', () => {
  function runToFull(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [BIN, ...args], { env: world.env, stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  }

  it.each([[['balance']], [['--help']], [['--version']]])('energy %j: exit 7 with one clear line', async (args) => {
    const result = await runToFull(args);
    expect(result.code).toBe(7);
    expect(result.stderr).toBe('energy: error: cannot write to standard output: no space left on the device\n');
  });

  it('with --json, that line is the JSON error object every other failure writes', async () => {
    const result = await runToFull(['balance', '--json']);
    expect(result.code).toBe(7);
    expect(JSON.parse(result.stderr)).toEqual({
      error: {
        exit_code: 7,
        message: 'cannot write to standard output: no space left on the device',
        hint: null,
        problem: null,
      },
    });
  });
});

describe('the key-and-secret mismatch note comes only with the API refusing them', () => {
  const secretInProfile = async () => {
    const env = { ...world.env, ENERGY_API_SECRET: '' };
    const set = await world.run(['config', 'set', 'api-secret'], {
      env,
      input: 'a-secret-that-is-not-the-sandbox-one\n',
    });
    expect(set.code, set.stderr).toBe(0);
    return env;
  };

  it("is said with the API's 401 when the key comes from the environment and the secret from the profile", async () => {
    const result = await world.run(['balance'], { env: await secretInProfile() });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('the API key comes from the environment and the secret from the profile');
  });

  it('is not said for credentials that were never sent (a key with a line break)', async () => {
    const env = { ...(await secretInProfile()), ENERGY_API_KEY: 'key\nwith-a-break' };
    const result = await world.run(['balance'], { env });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain('api-key contains a line break');
    expect(result.stderr).not.toContain('belong together');
  });
});
