/**
 * Every argument, each bad value: exit 2, a one-line reason (and perhaps a hint), and nothing sent. Runs
 * the real run() in-process against the sandbox, so the sweep stays fast while "nothing sent" is measured
 * at a real server.
 */
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { ADDRESS } from '../helpers/world.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();

const ID = '2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f';
const quote = (...rest: string[]) => ['quote', ADDRESS, '--energy', '65000', '--hours', '1', ...rest];
const create = (...rest: string[]) => orderCreateArgs(ADDRESS, '--yes', ...rest);
const ensure = () => ['ensure', ADDRESS, '--energy', '65000', '--hours', '1', '--yes'];

const CASES: [label: string, args: string[], reason: RegExp][] = [
  ['energy 0', ['quote', ADDRESS, '--energy', '0', '--hours', '1'], /--energy.*positive whole number/],
  ['energy negative', ['quote', ADDRESS, '--energy', '-5', '--hours', '1'], /--energy/],
  ['energy fractional', ['quote', ADDRESS, '--energy', '1.5', '--hours', '1'], /--energy/],
  ['energy exponent', ['quote', ADDRESS, '--energy', '1e5', '--hours', '1'], /--energy/],
  ['energy hex', ['quote', ADDRESS, '--energy', '0x10', '--hours', '1'], /--energy/],
  ['energy beyond 2^53', ['quote', ADDRESS, '--energy', '9007199254740993', '--hours', '1'], /--energy/],
  ['energy missing', ['quote', ADDRESS, '--hours', '1'], /--energy.*not specified/],
  ['hours text', ['quote', ADDRESS, '--energy', '65000', '--hours', 'one'], /--hours/],
  ['hours 0', ['quote', ADDRESS, '--energy', '65000', '--hours', '0'], /--hours/],
  [
    'address bad checksum',
    ['quote', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u', '--energy', '1000', '--hours', '1'],
    /checksum/,
  ],
  ['address too short', ['quote', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzg', '--energy', '1000', '--hours', '1'], /length/],
  ['address non-base58', ['quote', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj0t', '--energy', '1000', '--hours', '1'], /base58/],
  [
    'address Ethereum',
    ['quote', '0x52908400098527886E0F7030069857D2E4169EE7', '--energy', '1000', '--hours', '1'],
    /not a TRON address/,
  ],
  ['address missing', ['quote', '--energy', '1000', '--hours', '1'], /missing required argument/],
  ['expected total exponent', create('--expected-total', '1e3'), /not a TRX amount/],
  ['expected total negative', create('--expected-total', '-1'), /not a TRX amount|--expected-total/],
  ['expected total 7 decimals', create('--expected-total', '1.1234567'), /not a TRX amount/],
  ['expected total leading dot', create('--expected-total', '.5'), /not a TRX amount/],
  ['max total text', create('--max-total', 'ten'), /not a TRX amount/],
  ['client request id with spaces', create('--client-request-id', 'a b'), /--client-request-id/],
  ['client request id too long', create('--client-request-id', 'x'.repeat(65)), /--client-request-id/],
  ['wait timeout 0', create('--wait', '--wait-timeout', '0'), /--wait-timeout/],
  ['wait timeout over a day', create('--wait', '--wait-timeout', '2d'), /--wait-timeout "2d": too long: at most 1d/],
  ['every 0s (a busy loop)', [...ensure(), '--every', '0s'], /--every "0s": must be a duration such as 30s, 10m/],
  ['every over 7 days', [...ensure(), '--every', '8d'], /--every "8d": too long: at most 7d/],
  ['every without a unit word', [...ensure(), '--every', '5x'], /--every "5x": must be a duration/],
  ['tolerance 50%', [...ensure(), '--tolerance', '50%'], /--tolerance/],
  ['order id not a uuid', ['order', 'get', 'not-a-uuid'], /UUID/],
  ['order id truncated', ['order', 'get', ID.slice(0, 30)], /UUID/],
  ['limit 0', ['order', 'list', '--limit', '0'], /--limit/],
  ['limit text', ['order', 'list', '--limit', 'many'], /--limit/],
  ['cursor empty', ['order', 'list', '--cursor', ''], /--cursor/],
  ['cursor with a space', ['order', 'list', '--cursor', 'a b'], /--cursor/],
  ['profile with a dot', ['--profile', 'a.b', 'balance'], /invalid profile name/],
  ['profile path', ['--profile', '../etc', 'balance'], /invalid profile name/],
  ['base URL http non-loopback', ['--base-url', 'http://example.com', 'balance'], /not loopback/],
  ['base URL not a URL', ['--base-url', 'api.example.com', 'balance'], /not a URL/],
  ['base URL ftp', ['--base-url', 'ftp://example.com', 'balance'], /https/],
  ['timeout text', ['--timeout', 'soon', 'balance'], /--timeout/],
  ['timeout 0', ['--timeout', '0', 'balance'], /--timeout/],
  ['retries 11', ['--retries', '11', 'balance'], /--retries/],
  ['unknown option', ['balance', '--colour'], /unknown option/],
  ['unknown command', ['balanse'], /unknown command/],
  ['unknown config name', ['config', 'get', 'password'], /unknown setting/],
  ['secret on argv', ['config', 'set', 'api-secret', 'hunter2hunter2'], /refusing api-secret/],
  ['quote extra argument', [...quote(), 'extra'], /too many arguments/],
];

describe('bad input sweep', () => {
  it.each(CASES)('%s → exit 2, one line, nothing sent', async (_label, args, reason) => {
    const before = world.sandbox.requestCount();
    const result = await runInProcess(args, world.env);
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^energy: error: /);
    expect(lines[0]).toMatch(reason);
    expect(lines.slice(1).every((line) => line.startsWith('hint: '))).toBe(true);
    expect(result.stdout).toBe('');
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('gives the same reason as one JSON object with --json', async () => {
    const result = await runInProcess(['--json', 'quote', ADDRESS, '--energy', '0', '--hours', '1'], world.env);
    expect(result.code).toBe(2);
    const body = JSON.parse(result.stderr) as { error: { exit_code: number; message: string } };
    expect(body.error.exit_code).toBe(2);
    expect(body.error.message).toMatch(/--energy/);
  });
});
