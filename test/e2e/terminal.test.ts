/** What a person at a terminal gets: the consent prompt, the hidden secret entry, colour. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshAddress } from '../helpers/e2e.js';
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

describe('order batch on a terminal', () => {
  it('asks one consent for the count and the sum, then shows progress on stderr; in a pipe, no progress', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-batch-tty-'));
    try {
      const write = (name: string, first: number) => {
        const path = join(dir, name);
        writeFileSync(
          path,
          `address,energy,hours\n${freshAddress(first)},65000,1\n${freshAddress(first + 1)},65000,1\n`,
        );
        return path;
      };
      const atTerminal = await runInTerminal(['order', 'batch', write('tty.csv', 31_001)], world.env, [
        { when: /\[y\/N\] /, type: 'y\r' },
      ]);
      expect(atTerminal.code).toBe(0);
      expect(atTerminal.screen).toMatch(/Place 2 orders for 7\.400000 TRX in all\?/);
      expect(atTerminal.screen).toMatch(/batch: 2\/2 lines, [\d.]+\/s, 7\.400000 TRX spent/);

      const inPipe = await world.run(['order', 'batch', write('pipe.csv', 31_011), '--yes']);
      expect(inPipe.code).toBe(0);
      expect(inPipe.stderr).not.toMatch(/batch: \d+\/\d+ lines/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
