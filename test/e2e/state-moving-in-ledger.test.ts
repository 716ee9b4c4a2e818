/**
 * Moving in, the rest of what a host's folder holds (issue 46 item 5, issue 50 MI1-MI5): a `--max-spend`
 * ledger whose window still counts orders the shared store does not have, and pending files that cannot be
 * read. Either stops every ordering command of the host that names the shared store (order create, order
 * batch, ensure before it asks for a quote, each cycle of a service), exit 5 naming `state import`; doctor's
 * journal check fails the same way; once imported, a service running all along orders again. Counted at the
 * sandbox (orders, quotes).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { expectNoStackTrace, freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { orderCreateArgs, rentalArgs } from '../helpers/rental.js';
import { shiftedClockEnv } from '../helpers/shifted-clock.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const bin = postgresBin();
const QUOTES = '/v1/energy/quotes';
const CEILING = ['--max-spend', '50/24h'];

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'moving in: ledgers and unreadable files', () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);
  const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
  const journalCheck = (result: CliResult) =>
    json<{ checks: { name: string; status: string; detail: string; hint: string | null }[] }>(result).checks.find(
      (check) => check.name === 'journal',
    )!;

  /** A host's state folder whose --max-spend ledger counts one order (3.700000 TRX) in its 24-hour window. */
  async function folderWithLedger(address: string): Promise<{ folder: string; moved: Record<string, string> }> {
    const folder = mkdtempSync(join(tmpdir(), 'energy-moving-ledger-'));
    const local = await world.run(['ensure', ...rentalArgs(address, '--yes', ...CEILING)], {
      env: { ENERGY_STATE_DIR: folder, ENERGY_TRON_NODE: world.sandbox.url },
    });
    expect(local.code, local.stderr).toBe(0);
    expect(ordersTo(address)).toHaveLength(1);
    return { folder, moved: { ...cluster.current.env, ENERGY_STATE_DIR: folder, ENERGY_TRON_NODE: world.sandbox.url } };
  }

  function expectRefused(result: CliResult, what: RegExp): void {
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(5);
    expect(result.stderr).toMatch(what);
    expect(result.stderr).toMatch(/run `energy (--json )?state import` on this host/);
  }

  const LEDGER =
    /the --max-spend ledger account sha256:\S+ \(.*spend-[0-9a-f]{16}\.ndjson\) counts 1 entry in its window \(3\.700000 TRX\) that the shared state store's ledger does not have/;

  it('a folder ledger with an order in its window: every ordering command refuses, ensure before its quote; doctor fails; state import clears it', async () => {
    const { moved } = await folderWithLedger(freshAddress(46_501));
    const other = freshAddress(46_502);
    const batch = join(mkdtempSync(join(tmpdir(), 'energy-moving-batch-')), 'batch.csv');
    writeFileSync(batch, `address,energy,hours\n${other},65000,1\n`);
    const quotes = world.sandbox.requestCount(QUOTES);
    expectRefused(await world.run(['ensure', ...rentalArgs(other, '--yes', ...CEILING)], { env: moved }), LEDGER);
    // Refused at the decision, before anything is asked of the API (the journal's begin would refuse too, later).
    expect(world.sandbox.requestCount(QUOTES)).toBe(quotes);
    expectRefused(await world.run(orderCreateArgs(other, '--yes'), { env: moved }), LEDGER);
    // order batch: each line refused at its journal's begin, the batch's "nothing was bought" (exit 9).
    const batched = await world.run(['order', 'batch', batch, '--yes', '--json'], { env: moved });
    expect(batched.code, batched.stderr).toBe(9);
    expect(batched.stdout + batched.stderr).toMatch(LEDGER);
    expect(ordersTo(other)).toHaveLength(0);
    const doctor = await world.run(['doctor', '--json'], { env: moved });
    expect(doctor.code, doctor.stderr).toBe(5);
    expect(journalCheck(doctor)).toMatchObject({ status: 'fail', hint: expect.stringContaining('state import') });
    expect(journalCheck(doctor).detail).toMatch(LEDGER);

    const imported = await world.run(['state', 'import', '--json'], { env: moved });
    expect(imported.code, imported.stderr).toBe(0);
    const ensured = await world.run(['ensure', ...rentalArgs(other, '--yes', ...CEILING)], { env: moved });
    expect(ensured.code, ensured.stderr).toBe(0);
    expect(ordersTo(other)).toHaveLength(1);
    expect(journalCheck(await world.run(['doctor', '--json'], { env: moved })).status).not.toBe('fail');
  }, 120_000);

  it('a service refused for a folder ledger orders once another process has imported it: a refusal is not remembered', async () => {
    const { moved } = await folderWithLedger(freshAddress(46_505));
    const other = freshAddress(46_506);
    const running = world.spawn(['ensure', ...rentalArgs(other, '--yes', '--json', '--every', '1s', ...CEILING)], {
      env: moved,
    });
    onTestFinished(() => void running.child.kill('SIGKILL'));
    const refusals = () =>
      running
        .output()
        .stderr.split('\n')
        .filter((line) => line.includes('(exit 5)')).length;
    await until('two cycles refused', () => refusals() >= 2, 30_000);
    expect(ordersTo(other)).toHaveLength(0);
    const imported = await world.run(['state', 'import'], { env: moved });
    expect(imported.code, imported.stderr).toBe(0);
    await until('the service ordered', () => ordersTo(other).length === 1, 30_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(other)).toHaveLength(1);
  }, 120_000);

  it('a pending file that cannot be read in the folder stops this host ordering, named as unreadable', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'energy-moving-unreadable-'));
    mkdirSync(join(folder, 'journal', 'pending'), { recursive: true, mode: 0o700 });
    const garbled = join(folder, 'journal', 'pending', 'k-0123456789abcdef.json');
    writeFileSync(garbled, '{"version":1,"client_request_id":', { mode: 0o600 });
    const moved = { ...cluster.current.env, ENERGY_STATE_DIR: folder, ENERGY_TRON_NODE: world.sandbox.url };
    const address = freshAddress(46_507);
    const unreadable = new RegExp(`${garbled.replaceAll('/', '\\/')} \\(unreadable: not valid JSON`);
    expectRefused(await world.run(orderCreateArgs(address, '--yes'), { env: moved }), unreadable);
    expectRefused(await world.run(['ensure', ...rentalArgs(address, '--yes')], { env: moved }), unreadable);
    expect(ordersTo(address)).toHaveLength(0);
  }, 60_000);

  // Last: it moves the sandbox's clock on a day, for the rest of the file.
  it('a folder ledger whose entries are older than its window is no reason to refuse', async () => {
    const { moved } = await folderWithLedger(freshAddress(46_503));
    // The ledger's window is a day: 25 hours later (the server's clock and this host's), nothing in it counts.
    world.sandbox.advance(25 * 3_600_000);
    const later = { ...moved, ...shiftedClockEnv(25 * 3_600_000) };
    const other = freshAddress(46_504);
    const result = await world.run(['ensure', ...rentalArgs(other, '--yes')], { env: later });
    expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(other)).toHaveLength(1);
  }, 120_000);
});
