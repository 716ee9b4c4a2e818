/**
 * One rule for the state folder, on every run of every command that uses the journal: the journal's own
 * folder (made 0700 inside it) must not be open to others, exit 2 with the chmod; the state folder itself
 * may be any folder (a shared volume). A cron `ensure` with enough energy meets the rule as early as one
 * that buys.
 */
import { chmodSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { createWorld, type World } from '../helpers/world.js';

const RICH = freshAddress(15_700);
let world: World;
let stateDir: string;
beforeAll(async () => {
  world = await createWorld({ tronAccounts: { [RICH]: { energy: 100_000 } } });
  stateDir = join(mkdtempSync(join(tmpdir(), 'energy-state-')), 'shared');
});
afterAll(async () => world.close());

const node = () => ({ ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: stateDir });
const apiRequests = () =>
  world.sandbox.requestCount('/v1/energy/orders') + world.sandbox.requestCount('/v1/energy/quotes');

describe('the state folder', () => {
  it('may itself be open to others (a shared volume): ensure buys, the journal inside is made 0700', async () => {
    mkdirSync(stateDir, { mode: 0o755 });
    chmodSync(stateDir, 0o755);
    const address = freshAddress(15_701);
    const result = await world.run(['ensure', address, '--energy', '65000', '--hours', '1', '--yes'], { env: node() });
    expect(result.code, result.stderr).toBe(0);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
  });

  describe('with the journal folder open to others', () => {
    const journal = () => join(stateDir, 'journal');
    beforeAll(() => chmodSync(journal(), 0o750));
    afterAll(() => chmodSync(journal(), 0o700));

    it.each([
      ['ensure with enough energy (nothing to buy)', ['ensure', RICH, '--energy', '65000', '--hours', '1', '--yes']],
      ['ensure with a shortfall', ['ensure', freshAddress(15_702), '--energy', '65000', '--hours', '1', '--yes']],
      ['order create', ['order', 'create', freshAddress(15_703), '--energy', '65000', '--hours', '1', '--yes']],
      ['order pending', ['order', 'pending']],
    ])('%s: exit 2 with the chmod, nothing bought', async (_, args) => {
      const before = apiRequests();
      const result = await world.run(args, { env: node() });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/the state folder .*journal is readable by others \(mode 750\)/);
      expect(result.stderr).toMatch(/chmod 700/);
      expect(apiRequests()).toBe(before);
    });
  });
});
