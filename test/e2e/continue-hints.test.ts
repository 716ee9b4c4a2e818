/** The commands we print for "read on" keep the context the user gave, quoted for the shell. */
import { describe, expect, it } from 'vitest';
import { contextWords, shellQuote } from '../../src/commands/shell-words.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ seedOrders: 5 });

describe('continue hints', () => {
  it('carries --profile, --base-url and --limit into `more: energy order list …`, and the command works as printed', async () => {
    const result = await world.run([
      '--profile',
      'ci-run',
      '--base-url',
      world.sandbox.url,
      'order',
      'list',
      '--limit',
      '2',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const more = /^more: energy (.*)$/m.exec(result.stderr)?.[1];
    expect(more).toMatch(
      new RegExp(`^--profile ci-run --base-url ${world.sandbox.url} order list --limit 2 --cursor \\S+$`),
    );
    const before = world.sandbox.requestCount('/v1/energy/orders');
    const next = await world.run(more!.split(' '));
    expect(next.code, next.stderr).toBe(0);
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(before + 1);
    expect(next.stdout).not.toBe(result.stdout);
  });

  it('quotes words a shell would split or expand', () => {
    expect(shellQuote('abc-1_2')).toBe('abc-1_2');
    expect(shellQuote("a b'c")).toBe(`'a b'\\''c'`);
    expect(shellQuote('$HOME')).toBe(`'$HOME'`);
    expect(contextWords({ profile: 'p', baseUrl: 'https://x.example/a b', json: true })).toEqual([
      '--profile',
      'p',
      '--base-url',
      `'https://x.example/a b'`,
      '--json',
    ]);
  });
});
