/** What a person at a terminal gets: the consent prompt, the hidden secret entry, colour. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInTerminal } from '../helpers/terminal.js';
import { ADDRESS, createWorld, type World } from '../helpers/world.js';

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world.close());

const ORDER = ['order', 'create', ADDRESS, '--energy', '65000', '--hours', '1'];

describe('consent prompt on a terminal', () => {
  it('shows the quote and places the order on "y"', async () => {
    const before = world.sandbox.orders().length;
    const result = await runInTerminal(ORDER, world.env, [{ when: /\[y\/N\] /, type: 'y\r' }]);
    expect(result.code).toBe(0);
    expect(result.screen).toMatch(
      /Quote:[\s\S]*Total\s+\d+\.\d{6} TRX[\s\S]*Place this order for \d+\.\d{6} TRX\? \[y\/N\]/,
    );
    expect(world.sandbox.orders().length).toBe(before + 1);
  });

  it('places nothing on "n" (or Enter) and exits 2', async () => {
    const before = world.sandbox.requestCount('/v1/energy/orders');
    for (const answer of ['n\r', '\r']) {
      const result = await runInTerminal(ORDER, world.env, [{ when: /\[y\/N\] /, type: answer }]);
      expect(result.code).toBe(2);
      expect(result.screen).toMatch(/order cancelled: nothing was placed/);
    }
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(before);
  });

  it.each([
    ['Ctrl-D', '\x04'],
    ['Ctrl-C', '\x03'],
  ])('treats %s at the prompt as "no": exit 2, nothing placed', async (_label, key) => {
    const before = world.sandbox.requestCount('/v1/energy/orders');
    const result = await runInTerminal(ORDER, world.env, [{ when: /\[y\/N\] /, type: key }]);
    expect(result.code).toBe(2);
    expect(result.screen).toMatch(/order cancelled: nothing was placed/);
    expect(world.sandbox.requestCount('/v1/energy/orders')).toBe(before);
  });

  it('does not ask when --yes is given', async () => {
    const result = await runInTerminal([...ORDER, '--yes'], world.env);
    expect(result.code).toBe(0);
    expect(result.screen).not.toMatch(/\[y\/N\]/);
  });
});

describe('secret entry on a terminal', () => {
  it('reads api-secret at a hidden prompt, never echoing it', async () => {
    const secret = 'typed-at-the-prompt-secret-7f';
    const env = { ...world.env, ENERGY_API_SECRET: undefined, ENERGY_PROFILE: 'tty' };
    const result = await runInTerminal(['config', 'set', 'api-secret'], env, [
      { when: /api-secret: /, type: `${secret}\r` },
    ]);
    expect(result.code).toBe(0);
    expect(result.screen).not.toContain(secret);
    expect(result.screen).toMatch(/api-secret set in profile tty \(\*\*\*\*7f\)/);
    const shown = await runInTerminal(['config', 'get', 'api-secret'], env);
    expect(shown.screen.trim()).toBe('****7f');
  });
});

describe('secret entry abandoned', () => {
  it('stores nothing and exits 2 on Ctrl-D', async () => {
    const env = { ...world.env, ENERGY_API_SECRET: undefined, ENERGY_PROFILE: 'tty-abandoned' };
    const result = await runInTerminal(['config', 'set', 'api-secret'], env, [{ when: /api-secret: /, type: '\x04' }]);
    expect(result.code).toBe(2);
    expect(result.screen).toMatch(/nothing entered: nothing was changed/);
    const shown = await runInTerminal(['config', 'get', 'api-secret'], env);
    expect(shown.screen).toMatch(/not set in profile tty-abandoned/);
  });
});

describe('colour', () => {
  it('is used on a terminal', async () => {
    const result = await runInTerminal(['balance'], { ...world.env, NO_COLOR: undefined });
    expect(result.screen).toContain('\x1b[2m');
  });

  it('is off with NO_COLOR', async () => {
    const result = await runInTerminal(['balance'], { ...world.env, NO_COLOR: '1' });
    expect(result.screen).not.toContain('\x1b[');
  });
});
