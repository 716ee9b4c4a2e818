/** Credentials a request cannot carry are refused where they come in, with one line, before any request. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();

describe('credentials with characters a header cannot carry', () => {
  it.each([
    ['ENERGY_API_KEY', 'key_\u00e9t\u00e9', 'api-key contains a character that is not ASCII (character 5 of 7)'],
    ['ENERGY_API_KEY', 'key\u001b[31m', 'api-key contains a control character (character 4 of 8)'],
    ['ENERGY_API_SECRET', 'first-line\nsecond-line', 'api-secret contains a line break (character 11 of 22)'],
  ])('refuses %s with exit 3 and one line, sending nothing', async (variable, value, reason) => {
    const before = world.sandbox.requestCount();
    const result = await runInProcess(['balance'], { ...world.env, [variable]: value });
    expect(result.code).toBe(3);
    const [line, hint, ...rest] = result.stderr.split('\n');
    expect(line).toBe(`energy: error: ${reason}, which cannot be sent in a request (from the ${variable} variable)`);
    expect(hint).toBe(`hint: set ${variable} again`);
    expect(rest).toEqual(['']);
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('refuses them in `config set` with exit 2 and stores nothing', async () => {
    const env = { ...world.env, ENERGY_CONFIG_DIR: join(world.configDir, 'set') };
    const key = await runInProcess(['config', 'set', 'api-key', 'ab\u0007cd'], env);
    expect(key.code).toBe(2);
    expect(key.stderr.split('\n')[0]).toBe(
      'energy: error: api-key contains a control character (character 3 of 5), which cannot be sent in a request: nothing stored',
    );
    const file = join(world.configDir, 'set', 'config.json');
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').not.toContain('ab\u0007cd');
  });
});
