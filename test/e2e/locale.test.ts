/**
 * Our typographic characters (… → ≥ ’) under a locale that cannot show them: ASCII stand-ins in the
 * readable lines on stderr (errors, hints, notes), the characters themselves under UTF-8 and in --json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { createWorld, type World } from '../helpers/world.js';

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => {
  await world.close();
});

// The machine's own locale must not decide: every run names its own, and LC_ALL/LC_CTYPE stay unset.
const C = { LANG: 'C', LC_ALL: undefined, LC_CTYPE: undefined };
const UTF8 = { LANG: 'en_US.UTF-8', LC_ALL: undefined, LC_CTYPE: undefined };

describe('an error line follows the locale', () => {
  it('LANG=C: `...` in place of `…`, nothing outside ASCII', async () => {
    const result = await world.run(['order', 'get', 'x'], { env: { ...world.env, ...C } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('e.g. 3f0c...-...;');
    expect(result.stderr).not.toMatch(/[^\x00-\x7f]/);
  });

  it('LANG=en_US.UTF-8: `…`', async () => {
    const result = await world.run(['order', 'get', 'x'], { env: { ...world.env, ...UTF8 } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('e.g. 3f0c…-…;');
  });

  it('LC_ALL=C wins over a UTF-8 LANG, as setlocale decides', async () => {
    const result = await world.run(['order', 'get', 'x'], { env: { ...world.env, ...UTF8, LC_ALL: 'C' } });
    expect(result.stderr).toContain('e.g. 3f0c...-...;');
  });

  it('--json keeps the exact characters under LANG=C (data, not display)', async () => {
    const result = await world.run(['--json', 'order', 'get', 'x'], { env: { ...world.env, ...C } });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr).error.message).toContain('3f0c…-…');
  });
});

describe('a note follows the locale', () => {
  const create = (n: number) => orderCreateArgs(freshAddress(n), '--yes', '--wait');

  it('LANG=C: "waiting until it is final..."', async () => {
    const before = world.sandbox.requestCount();
    const result = await world.run(create(9101), { env: { ...world.env, ...C } });
    expect(result.code, result.stderr).toBe(0);
    expect(world.sandbox.requestCount()).toBeGreaterThan(before);
    expect(result.stderr).toContain('waiting until it is final...');
    expect(result.stderr).not.toMatch(/[^\x00-\x7f]/);
  });

  it('LANG=en_US.UTF-8: "waiting until it is final…"', async () => {
    const result = await world.run(create(9102), { env: { ...world.env, ...UTF8 } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('waiting until it is final…');
  });
});
