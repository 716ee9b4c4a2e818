/**
 * Batch input, read through bin/energy.js: one number rule with the command line (plain digits; NDJSON's
 * `1e5`, `65000.0` and `"65000"` refused), and a CSV value with a space around it shown so the space is seen.
 * Every refusal is before any quote or order: counted at the sandbox.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { createWorld, type World } from '../helpers/world.js';

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world.close());

const QUOTES = '/v1/energy/quotes';

async function batch(input: string, format: 'csv' | 'ndjson') {
  const before = { quotes: world.sandbox.requestCount(QUOTES), orders: world.sandbox.orders().length };
  const result = await world.run(['order', 'batch', '-', '--format', format, '--yes'], { env: world.env, input });
  return {
    ...result,
    quotes: world.sandbox.requestCount(QUOTES) - before.quotes,
    orders: world.sandbox.orders().length - before.orders,
  };
}

describe('NDJSON energy and hours: a JSON number in plain digits, as on the command line', () => {
  it.each([
    [
      '1e5',
      '"energy":1e5',
      'energy must be a JSON number in plain digits (no exponent, decimal point or sign), not 1e5',
    ],
    ['65000.0', '"energy":65000.0', 'not 65000.0'],
    [
      '"65000"',
      '"energy":"65000"',
      'energy must be a JSON number in plain digits (e.g. 65000), not the string "65000"',
    ],
    [
      'hours "1"',
      '"energy":65000,"hours":"1"',
      'hours must be a JSON number in plain digits (e.g. 1), not the string "1"',
    ],
  ])('refuses %s before any quote (exit 2)', async (_label, fields, message) => {
    const line = `{"address":"${freshAddress(9301)}",${fields}${fields.includes('hours') ? '' : ',"hours":1'}}\n`;
    const result = await batch(line, 'ndjson');
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('energy: error: stdin, line 1: ');
    expect(result.stderr).toContain(message);
    expect(result.quotes).toBe(0);
    expect(result.orders).toBe(0);
  });

  it('places a line written in plain digits', async () => {
    const result = await batch(`{"address":"${freshAddress(9302)}","energy":65000,"hours":1}\n`, 'ndjson');
    expect(result.code, result.stderr).toBe(0);
    expect(result.orders).toBe(1);
  });
});

describe('a CSV value with a space around it', () => {
  it('quotes the value and names the leading space; nothing quoted or bought', async () => {
    const result = await batch(`address,energy,hours\n${freshAddress(9303)}, 65000,1\n`, 'csv');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'stdin, line 2: energy must be a positive whole number in plain digits, not " 65000" (a leading space)',
    );
    expect(result.quotes).toBe(0);
    expect(result.orders).toBe(0);
  });

  it('names a trailing space in hours', async () => {
    const result = await batch(`address,energy,hours\n${freshAddress(9304)},65000,1 \n`, 'csv');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('hours "1 " (a trailing space) is not offered');
  });
});

describe('counts in words', () => {
  it('one line without --yes: "not placing 1 order", not "1 orders"', async () => {
    const line = `{"address":"${freshAddress(9305)}","energy":65000,"hours":1}\n`;
    const result = await world.run(['order', 'batch', '-', '--format', 'ndjson'], { env: world.env, input: line });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not placing 1 order for \d+\.\d{6} TRX without consent/);
  });
});
