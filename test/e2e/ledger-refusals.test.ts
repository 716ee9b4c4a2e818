/**
 * What the --max-spend ledger refuses, through the CLI and counted at the sandbox (issue 50): an older
 * energy's ledger is found at the path that version used, and counted (an upgrade does not lift a ceiling);
 * one that cannot be read stops the run; `state import` refuses a folder ledger with a damaged line; and the
 * folder's machine-wide ensure.lock is held around a run's whole decision, so a second run waits for the
 * first's order before it counts what is in flight.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startApiFront } from '../helpers/api-front.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the --max-spend ledger of an older energy, and the ensure lock', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });
  let next = 45_000;
  function setUp(): { address: string; folder: string; env: Record<string, string> } {
    world.sandbox.setRates({ 1: '0.000060' });
    const address = freshAddress(next++);
    world.sandbox.seedTronAccount(address, { activated: true });
    const folder = mkdtempSync(join(tmpdir(), 'energy-refusals-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    mkdirSync(join(folder, 'journal'), { mode: 0o700 });
    return { address, folder, env: { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_STATE_DIR: folder } };
  }
  /**
   * Where an older energy kept this base URL's and key's ledger: spend-<first 16 hex of sha256("<origin>\n<key
   * id>")>.json in the journal folder, the key id being "sha256:" and the first 16 hex of the key's sha256.
   */
  const oldLedgerPath = (folder: string) =>
    join(
      folder,
      'journal',
      `spend-${sha256(`${world.sandbox.url}\nsha256:${sha256(world.sandbox.apiKey).slice(0, 16)}`).slice(0, 16)}.json`,
    );
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);

  it("an older energy's ledger at 7.8 of 8/1h is found and counted: the run orders nothing, and the file is taken in once", async () => {
    const { address, folder, env } = setUp();
    const at = Date.now() - 60_000;
    const entry = (n: number) => ({ order_id: `old-${n}`, address, total_trx: '3.900000', at_ms: at, state: 'kept' });
    writeFileSync(oldLedgerPath(folder), JSON.stringify({ entries: [entry(1), entry(2)] }), { mode: 0o600 });
    const result = await world.run(['ensure', ...rentalArgs(address, '--yes', '--max-spend', '8/1h', '--json')], {
      env,
    });
    expect(JSON.parse(result.stdout).items[0].reason, result.stderr).toBe('spend_limit');
    expect(ordersTo(address)).toHaveLength(0);
    expect(existsSync(`${oldLedgerPath(folder)}.imported`)).toBe(true);
  }, 60_000);

  it("an older energy's ledger that cannot be read (a folder in its place) stops the run: exit 2, nothing ordered", async () => {
    const { address, folder, env } = setUp();
    mkdirSync(oldLedgerPath(folder));
    const result = await world.run(['ensure', ...rentalArgs(address, '--yes', '--max-spend', '8/1h', '--json')], {
      env,
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('(of an older energy) cannot be read');
    expect(ordersTo(address)).toHaveLength(0);
  }, 60_000);

  it('a second run on one state folder waits for the ensure lock while the first decides: one order, not two', async () => {
    const { address, env } = setUp();
    // The first run's quote is held 4 s at the sandbox, inside its decision; the front says when it is there.
    let quoting = false;
    const front = await startApiFront(world.sandbox.url, {
      onRequest: (_method, path) => {
        if (path === '/v1/energy/quotes') quoting = true;
      },
    });
    onTestFinished(() => front.close());
    world.sandbox.inject({ kind: 'delay', ms: 4_000, times: 1, match: { method: 'POST', path: '/v1/energy/quotes' } });
    const args = ['ensure', ...rentalArgs(address, '--yes', '--json')];
    const first = world.spawn(args, { env: { ...env, ENERGY_BASE_URL: front.url } });
    onTestFinished(() => void first.child.kill('SIGKILL'));
    await until('the first run is asking for its quote', () => quoting);
    const second = await world.run(args, { env });
    const firstResult = await first.result;
    expect(firstResult.code, firstResult.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).items[0].reason).toBe('in_flight');
    expect(ordersTo(address)).toHaveLength(1);
  }, 60_000);
});

const bin = postgresBin();

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'state import of a damaged folder ledger', () => {
  const world = worldForSuite({ deliverAfterMs: 100, rateLimit: false });
  const cluster = clusterForSuite(bin);

  it('is refused whole (exit 2): no event of any ledger reaches the database', async () => {
    world.sandbox.setRates({ 1: '0.000060' });
    const address = freshAddress(45_100);
    world.sandbox.seedTronAccount(address, { activated: true });
    const folder = mkdtempSync(join(tmpdir(), 'energy-import-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const local = { ENERGY_STATE_DIR: folder, ENERGY_STATE_URL: '', ENERGY_TRON_NODE: world.sandbox.url };
    const ceiling = ['--yes', '--max-spend', '8/1h', '--json'];
    expect((await world.run(['ensure', ...rentalArgs(address, ...ceiling)], { env: local })).code).toBe(0);
    const [ledger] = readdirSync(join(folder, 'journal')).filter((name) => /^spend-.*\.ndjson$/.test(name));
    // A whole line that is no ledger event, between good ones (not a last line cut short by a crash).
    appendFileSync(join(folder, 'journal', ledger!), 'this is not a ledger event\n{"kind":"window","window_ms":1}\n');
    const imported = await world.run(['state', 'import', '--json'], {
      env: { ...cluster.current.env, ENERGY_STATE_DIR: folder },
    });
    expect(imported.code, imported.stderr).toBe(2);
    expect(imported.stderr).toContain('is not a ledger event');
    expect(cluster.current.sql('SELECT count(*) FROM energy.spend_event')).toBe('0');
  }, 60_000);
});
