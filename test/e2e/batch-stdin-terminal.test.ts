/** `order batch -` with a terminal on standard input says that it reads lines until Ctrl-D. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { runInTerminal } from '../helpers/terminal.js';
import { createWorld, type World } from '../helpers/world.js';

let world: World;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => world.close());

const UTF8 = { LANG: 'en_US.UTF-8', LC_ALL: undefined, LC_CTYPE: undefined };

describe('order batch - on a terminal', () => {
  it('says it reads standard input until Ctrl-D, then orders the typed line', async () => {
    const before = world.sandbox.orders().length;
    const line = JSON.stringify({ address: freshAddress(9201), energy: 65000, hours: 1 });
    const result = await runInTerminal(['order', 'batch', '-', '--yes'], { ...world.env, ...UTF8 }, [
      { when: /until Ctrl-D/, type: `${line}\r\u0004` },
    ]);
    expect(result.code, result.screen).toBe(0);
    expect(result.screen).toContain('reading order lines from standard input (the terminal) until Ctrl-D');
    expect(world.sandbox.orders().length).toBe(before + 1);
  });

  it('without --yes refuses before reading or asking anything (the prompt could not be read after Ctrl-D)', async () => {
    const before = world.sandbox.requestCount();
    const result = await runInTerminal(['order', 'batch', '-'], { ...world.env, ...UTF8 });
    expect(result.code, result.screen).toBe(2);
    expect(result.screen).toContain('cannot ask for consent there');
    expect(result.screen).toContain('add --yes');
    expect(world.sandbox.requestCount()).toBe(before);
  });

  it('says nothing when standard input is a pipe', async () => {
    const line = JSON.stringify({ address: freshAddress(9202), energy: 65000, hours: 1 });
    const result = await world.run(['order', 'batch', '-', '--yes'], { env: world.env, input: `${line}\n` });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('Ctrl-D');
  });
});
