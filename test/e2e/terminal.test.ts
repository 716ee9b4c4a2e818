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

describe('tables fit the terminal', () => {
  const widest = (screen: string) => Math.max(...screen.split(/\r?\n/).map((line) => [...line].length));

  it('order list: 80 columns with short ids and times; a pipe keeps every id whole', async () => {
    for (let i = 0; i < 3; i += 1) expect((await world.run([...ORDER, '--yes'])).code).toBe(0);
    const ids = world.sandbox.orders().map((order) => order.id);
    const screen = (await runInTerminal(['order', 'list'], { ...world.env, LANG: 'C.UTF-8' }, [], 80)).screen;
    expect(widest(screen)).toBeLessThanOrEqual(80);
    // HOURS goes only when a status is wider than "active": whether it is depends on how far delivery got.
    expect(screen).toMatch(
      /^ID\s+CREATED\s+ADDRESS\s+ENERGY\s+(HOURS\s+)?TOTAL_TRX\s+STATUS\s+FAILURE(\s+FINAL)?\r?$/m,
    );
    for (const id of ids.slice(-3)) expect(screen).toContain(`${id.slice(0, 8)}  `);
    expect(screen).not.toContain(ids.at(-1));
    expect(screen).toMatch(/\d\d-\d\d \d\d:\d\d {2}TPL66V…zjhUZY {2}65,000/);

    const wide = (await runInTerminal(['order', 'list'], world.env, [], 200)).screen;
    expect(wide).toContain(ids.at(-1));
    const piped = await world.run(['order', 'list']);
    expect(piped.stdout).toContain(ids.at(-1));
    expect(piped.stdout).toContain(`${ADDRESS}  65,000`);

    // The short id the screen shows is one `order get` and `order wait` take.
    const short = ids.at(-1)!.slice(0, 8);
    const got = await world.run(['order', 'get', short, '--json']);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: ids.at(-1) });
    const waited = await world.run(['order', 'wait', short, '--json']);
    expect(waited.code, waited.stderr).toBe(0);
    expect(JSON.parse(waited.stdout)).toMatchObject({ id: ids.at(-1) });
    const missing = await world.run(['order', 'get', 'ffffffff']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toMatch(/no order id starts with ffffffff among the newest \d+ orders/);
  });

  it('order pending: fits 80 columns, without the client id, times local and energy grouped', async () => {
    world.sandbox.inject({
      kind: 'drop-after-commit',
      times: 10,
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const sent = await world.run([...ORDER, '--yes', '--client-request-id', 'fit-the-terminal-0001']);
    world.sandbox.clearFaults();
    expect(sent.code).not.toBe(0);
    try {
      const env = { ...world.env, LANG: 'C.UTF-8', TZ: 'UTC' };
      const screen = (await runInTerminal(['order', 'pending'], env, [], 80)).screen;
      const table = screen.split(/\r?\n/).filter((line) => /^(JOURNALED|\d\d-\d\d )/.test(line));
      expect(table).toHaveLength(2);
      expect(Math.max(...table.map((line) => [...line].length)), JSON.stringify(table)).toBeLessThanOrEqual(80);
      expect(screen).toMatch(/^JOURNALED\s+ADDRESS\s+ENERGY\s+/m);
      expect(table.join('\n')).not.toContain('fit-the-terminal-0001');
      // The last error the table cuts is written whole on stderr, named by the client id the table left out.
      expect(screen).toMatch(
        /^energy: fit-the-terminal-0001: last error: POST \/v1\/energy\/orders to .*\(\d+ attempts\)\r?$/m,
      );
      expect(screen).toMatch(/\d\d-\d\d \d\d:\d\d {2}TPL66V…zjhUZY {2}65,000 /);

      const piped = await world.run(['order', 'pending'], { env });
      expect(piped.stdout).toMatch(
        /^fit-the-terminal-0001\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+TPL66V\w+\s+65,000\s+1\s/m,
      );
    } finally {
      expect((await world.run(['order', 'recover'])).code).toBe(0);
    }
  });
});
