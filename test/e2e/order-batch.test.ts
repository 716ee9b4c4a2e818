/** `energy order batch`: every line once, resumable after a kill, checked before anything is bought. */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { freshAddress } from '../helpers/e2e.js';
import { tempDirForSuite, worldForSuite } from '../helpers/suite-world.js';
import { createWorld } from '../helpers/world.js';

const world = worldForSuite({ startingBalance: '100000.000000', deliverAfterMs: 60_000 });
const dir = tempDirForSuite('energy-batch-');
afterEach(() => world.sandbox.clearFaults());

let next = 20_000;
/** `count` fresh addresses, as batch lines. */
function lines(count: number, energy = 65000, hours = 1): { address: string; energy: number; hours: number }[] {
  return Array.from({ length: count }, () => ({ address: freshAddress((next += 1)), energy, hours }));
}
function csv(name: string, rows: { address: string; energy: number; hours: number }[], extra = ''): string {
  const path = join(dir.path, name);
  writeFileSync(
    path,
    `address,energy,hours\n${rows.map((r) => `${r.address},${r.energy},${r.hours}`).join('\n')}\n${extra}`,
  );
  return path;
}
const ordersTo = (rows: { address: string }[]) => {
  const wanted = new Set(rows.map((r) => r.address));
  return world.sandbox.orders().filter((o) => wanted.has(o.address));
};
const results = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          line: number;
          status: string;
          client_request_id: string;
          order: Order | null;
          error: { exit_code: number; message: string } | null;
        },
    );

describe('order batch', () => {
  it('places one order per line, and a re-run of the same file places none', async () => {
    const rows = lines(30);
    const file = csv('rerun.csv', rows);
    const first = await world.run(['order', 'batch', file, '--yes', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(
      results(first.stdout)
        .map((r) => r.status)
        .sort(),
    ).toEqual(Array(30).fill('created'));
    expect(ordersTo(rows)).toHaveLength(30);
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const again = await world.run(['order', 'batch', file, '--yes', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(results(again.stdout).every((r) => r.status === 'skipped')).toBe(true);
    expect(ordersTo(rows)).toHaveLength(30);
    expect(world.sandbox.requestCount('/v1/energy/quotes') - quotes).toBe(0);
  });

  it('after SIGKILL at a random point of a 300-line batch, the re-run finishes it: 300 orders, each id once', async () => {
    const rows = lines(300);
    const file = csv('killed.csv', rows);
    world.sandbox.inject({ kind: 'delay', ms: 30, times: 1000, match: { method: 'POST', path: '/v1/energy/orders' } });
    const running = world.spawn(['order', 'batch', file, '--yes', '--json', '--concurrency', '8']);
    const killAt = 40 + Math.floor(Math.random() * 200);
    const deadline = Date.now() + 60_000;
    while (ordersTo(rows).length < killAt && Date.now() < deadline) await sleep(5);
    running.child.kill('SIGKILL');
    await running.result;
    world.sandbox.clearFaults();
    expect(ordersTo(rows).length).toBeLessThan(300);

    const rerun = await world.run(['order', 'batch', file, '--yes', '--json', '--concurrency', '8']);
    expect(rerun.code, rerun.stderr).toBe(0);
    const orders = ordersTo(rows);
    expect(orders).toHaveLength(300);
    expect(new Set(orders.map((o) => o.client_request_id)).size).toBe(300);
    expect(new Set(orders.map((o) => o.address)).size).toBe(300);
  });

  it('one line refused (409) gives exit 9, and the other lines stand', async () => {
    const rows = lines(10);
    world.sandbox.inject({
      kind: 'status',
      status: 409,
      times: 1,
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const result = await world.run([
      'order',
      'batch',
      csv('one-refused.csv', rows),
      '--yes',
      '--json',
      '--concurrency',
      '1',
    ]);
    expect(result.code).toBe(9);
    const failed = results(result.stdout).filter((r) => r.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.error).toMatchObject({ exit_code: 5 });
    expect(ordersTo(rows)).toHaveLength(9);
    expect(result.stderr).toMatch(/1 of 10 lines failed \(the others stand\)/);
    expect(result.stderr).toMatch(/re-run the same file to finish/);
  });

  it('every line failed: says so, without "the others stand"', async () => {
    const rows = lines(2);
    world.sandbox.inject({
      kind: 'status',
      status: 400,
      times: 2,
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const result = await world.run(['order', 'batch', csv('all-refused.csv', rows), '--yes']);
    expect(result.code).toBe(9);
    expect(result.stderr).toMatch(/^energy: error: 2 lines failed: nothing was bought$/m);
    expect(result.stderr).not.toMatch(/the others stand/);
    expect(ordersTo(rows)).toHaveLength(0);
  });

  it('re-quotes a line refused for a changed price once, and places it', async () => {
    const rows = lines(3);
    const problem = {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: 'price changed',
      code: 'PRICE_CHANGED',
    };
    world.sandbox.inject({
      kind: 'raw',
      status: 409,
      contentType: 'application/problem+json',
      body: JSON.stringify(problem),
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const result = await world.run([
      'order',
      'batch',
      csv('reprice.csv', rows),
      '--yes',
      '--json',
      '--concurrency',
      '1',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(world.sandbox.requestCount('/v1/energy/quotes') - quotes).toBe(4);
    expect(ordersTo(rows)).toHaveLength(3);
  });

  it('rides out a 429 and places every line', async () => {
    const rows = lines(12);
    world.sandbox.inject({
      kind: 'status',
      status: 429,
      retryAfter: '1',
      times: 1,
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const result = await world.run(['order', 'batch', csv('rate.csv', rows), '--yes', '--json', '--concurrency', '6']);
    expect(result.code, result.stderr).toBe(0);
    expect(ordersTo(rows)).toHaveLength(12);
  });

  it('a bad line 57 of 100 stops the batch naming it: nothing quoted, nothing bought', async () => {
    const rows = lines(100);
    const bad = [...rows];
    bad[55] = { ...bad[55]!, energy: 65500 };
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const result = await world.run(['order', 'batch', csv('bad57.csv', bad), '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /bad57\.csv, line 57: energy 65,500 is not a multiple of the portion, 1,000: nothing was bought/,
    );
    expect(world.sandbox.requestCount('/v1/energy/quotes') - quotes).toBe(0);
    expect(ordersTo(rows)).toHaveLength(0);
  });

  it.each([
    [
      'a bad checksum',
      (path: string, text: string) => writeFileSync(path, text.replace(/(\n[A-Za-z0-9]{33})[A-Za-z0-9]/, '$1A')),
      /line 2: ".*" is not a TRON address/,
    ],
    [
      'hours not offered',
      (path: string, text: string) => writeFileSync(path, text.replace(',65000,1\n', ',65000,2\n')),
      /line 2: hours 2 is not offered/,
    ],
    [
      'a duplicate id',
      (path: string, text: string) =>
        writeFileSync(
          path,
          text
            .replace('address,energy,hours\n', 'address,energy,hours,client_request_id\n')
            .replace(/(,65000,1)\n/g, '$1,same\n'),
        ),
      /line 3: client_request_id same is already on line 2/,
    ],
  ])('refuses %s with exit 2 naming the line, buying nothing', async (_what, write, message) => {
    const rows = lines(3);
    const path = join(dir.path, `bad-${next}.csv`);
    write(path, `address,energy,hours\n${rows.map((r) => `${r.address},${r.energy},${r.hours}`).join('\n')}\n`);
    const result = await world.run(['order', 'batch', path, '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(ordersTo(rows)).toHaveLength(0);
  });

  it('reports every bad line in one run: each on stderr, then one error; nothing quoted or bought', async () => {
    const rows = lines(6);
    const text = rows
      .map((r, i) => `${r.address},${i === 1 ? 1500 : r.energy},${i === 3 ? 2 : r.hours}`)
      .map((line, i) => (i === 4 ? line.replace(/^T/, 'X') : line));
    const path = join(dir.path, 'many-bad.csv');
    writeFileSync(path, `address,energy,hours\n${text.join('\n')}\n`);
    const quotes = world.sandbox.requestCount('/v1/energy/quotes');
    const result = await world.run(['order', 'batch', path, '--yes', '--json']);
    expect(result.code).toBe(2);
    const said = result.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, { message: string }>);
    expect(said.slice(0, 3).map((line) => line.note!.message)).toEqual([
      expect.stringMatching(/many-bad\.csv, line 3: energy 1,500 is not a multiple/),
      expect.stringMatching(/many-bad\.csv, line 5: hours 2 is not offered/),
      expect.stringMatching(/many-bad\.csv, line 6: ".*" is not a TRON address/),
    ]);
    expect(said[3]!.error!.message).toBe(
      `${path}: 3 lines are not valid orders (lines 3, 5, 6, each said above): nothing was bought`,
    );
    expect(world.sandbox.requestCount('/v1/energy/quotes')).toBe(quotes);
    expect(ordersTo(rows)).toHaveLength(0);
  });

  it('reads what Excel and Python write: CRLF line ends, a UTF-8 BOM, quoted fields', async () => {
    const rows = lines(3);
    const path = join(dir.path, 'excel.csv');
    const body = rows.map((r) => `"${r.address}",${r.energy},"${r.hours}"`).join('\r\n');
    writeFileSync(path, `\uFEFF"address","energy","hours"\r\n${body}\r\n`);
    const result = await world.run(['order', 'batch', path, '--yes', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(results(result.stdout).map((r) => r.status)).toEqual(['created', 'created', 'created']);
    expect(ordersTo(rows)).toHaveLength(3);
  });

  it('reads its own --json back: a dry run’s plan (duration_hours, line, plan…) is a batch of the same ids', async () => {
    const rows = lines(2, 65000, 3);
    const file = csv('plan-source.csv', rows);
    const dry = await world.run(['order', 'batch', file, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = dry.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { client_request_id: string });
    const placed = await world.run(['order', 'batch', '-', '--yes', '--json'], { input: dry.stdout });
    expect(placed.code, placed.stderr).toBe(0);
    expect(
      results(placed.stdout)
        .map((r) => r.client_request_id)
        .sort(),
    ).toEqual(planned.map((p) => p.client_request_id).sort());
    expect(ordersTo(rows).map((o) => o.duration_hours)).toEqual([3, 3]);
    // The CSV it came from is the same batch: nothing bought twice.
    const again = await world.run(['order', 'batch', file, '--yes', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(results(again.stdout).map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(ordersTo(rows)).toHaveLength(2);
  });

  it('a file that grows: appending a line buys only that line, and the dry run says so', async () => {
    const rows = lines(3);
    const path = join(dir.path, 'payouts.csv');
    const write = (count: number) =>
      writeFileSync(
        path,
        `address,energy,hours\n${rows
          .slice(0, count)
          .map((r) => `${r.address},${r.energy},${r.hours}\n`)
          .join('')}`,
      );
    write(2);
    const first = await world.run(['order', 'batch', path, '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(ordersTo(rows)).toHaveLength(2);
    write(3);
    const dry = await world.run(['order', 'batch', path, '--dry-run']);
    expect(dry.stderr).toMatch(/dry run: 1 to order, 0 to resend, 2 already ordered/);
    const grown = await world.run(['order', 'batch', path, '--yes', '--json']);
    expect(grown.code, grown.stderr).toBe(0);
    expect(
      results(grown.stdout)
        .map((r) => `${r.line} ${r.status}`)
        .sort(),
    ).toEqual(['2 skipped', '3 skipped', '4 created']);
    expect(ordersTo(rows)).toHaveLength(3);
    expect(new Set(ordersTo(rows).map((o) => o.address)).size).toBe(3);
  });

  it('a line journaled by an earlier version (file hash and line number) is not bought again after an upgrade', async () => {
    const rows = lines(2);
    const file = csv('upgraded.csv', rows);
    const legacyId = `batch-${createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 24)}-2`;
    // What an earlier version did for line 2: journal and place it under that id.
    const earlier = await world.run([
      'api',
      'POST',
      '/v1/energy/orders',
      '-f',
      `client_request_id=${legacyId}`,
      '-f',
      `address=${rows[0]!.address}`,
      '-F',
      'energy=65000',
      '-F',
      'duration_hours=1',
      '-f',
      'expected_total_trx=3.700000',
    ]);
    expect(earlier.code, earlier.stderr).toBe(0);
    const result = await world.run(['order', 'batch', file, '--yes', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(
      results(result.stdout)
        .map((r) => `${r.line} ${r.status} ${r.client_request_id}`)
        .sort(),
    ).toEqual([`2 skipped ${legacyId}`, expect.stringMatching(/^3 created batch-[0-9a-f]{32}$/)]);
    expect(ordersTo(rows)).toHaveLength(2);
    // One line, said as one: not "1 lines were".
    expect(result.stderr).toContain('"1 line was ordered by an earlier run of this batch');
  });

  it('CSV and NDJSON of the same lines give the same orders; stdin works as -', async () => {
    const rows = lines(5);
    const other = await createWorld({ startingBalance: '1000.000000' });
    try {
      const fromCsv = await world.run(['order', 'batch', csv('same.csv', rows), '--yes', '--json']);
      const ndjson = rows
        .map((r) => JSON.stringify({ address: r.address, energy: r.energy, hours: r.hours }))
        .join('\n');
      const fromNdjson = await other.run(['order', 'batch', '-', '--yes', '--json'], { input: `${ndjson}\n` });
      expect(fromCsv.code, fromCsv.stderr).toBe(0);
      expect(fromNdjson.code, fromNdjson.stderr).toBe(0);
      const shape = (orders: Order[]) =>
        orders.map((o) => `${o.address} ${o.energy} ${o.duration_hours} ${o.total_trx}`).sort();
      const wanted = new Set(rows.map((r) => r.address));
      expect(shape(other.sandbox.orders().filter((o) => wanted.has(o.address)))).toEqual(shape(ordersTo(rows)));
    } finally {
      await other.close();
    }
  });

  it('--max-total below the sum: exit 5 and nothing bought; --dry-run prints the plan and buys nothing', async () => {
    const rows = lines(4);
    const file = csv('capped.csv', rows);
    const capped = await world.run(['order', 'batch', file, '--yes', '--max-total', '10']);
    expect(capped.code).toBe(5);
    expect(capped.stderr).toMatch(/the batch total 14\.800000 TRX is above --max-total 10\.000000/);
    const dry = await world.run(['order', 'batch', file, '--dry-run', '--json', '--max-total', '10']);
    expect(dry.code).toBe(0);
    expect(
      dry.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { plan: string; total_trx: string }),
    ).toEqual(Array(4).fill(expect.objectContaining({ plan: 'order', total_trx: '3.700000' })));
    expect(dry.stderr).toMatch(
      /14\.800000 TRX in all, above --max-total 10\.000000: a real run would buy nothing \(exit 5\); nothing was bought/,
    );
    expect(ordersTo(rows)).toHaveLength(0);
  });

  it('without --yes in a script: exit 2, nothing bought', async () => {
    const rows = lines(2);
    const result = await world.run(['order', 'batch', csv('consent.csv', rows)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not placing 2 orders for 7\.400000 TRX without consent/);
    expect(ordersTo(rows)).toHaveLength(0);
  });

  it('SIGTERM stops taking lines: the orders in flight finish and are journaled, the rest not reached (exit 143)', async () => {
    const rows = lines(200);
    const file = csv('term.csv', rows);
    // 4 at a time, 200 ms each at the server: the whole file would take 10 s, the signal comes after 8 orders.
    world.sandbox.inject({ kind: 'delay', ms: 200, times: 1000, match: { method: 'POST', path: '/v1/energy/orders' } });
    const posts = world.sandbox.requestCount('/v1/energy/orders', 'POST');
    const running = world.spawn(['order', 'batch', file, '--yes', '--json', '--concurrency', '4']);
    const deadline = Date.now() + 30_000;
    while (ordersTo(rows).length < 8 && Date.now() < deadline) await sleep(5);
    const atSignal = ordersTo(rows).length;
    running.child.kill('SIGTERM');
    const result = await running.result;
    world.sandbox.clearFaults();
    expect(result.code).toBe(143);
    const placed = ordersTo(rows).length;
    // After the signal only the requests already sent are placed: 4 in flight, and at most a round or two more
    // that left before the signal was read (each round takes 200 ms at the server). Every request sent placed one.
    expect(placed).toBeLessThanOrEqual(atSignal + 12);
    expect(world.sandbox.requestCount('/v1/energy/orders', 'POST') - posts).toBe(placed);
    expect(result.stderr).toContain(
      `interrupted by SIGTERM: the orders in flight finished and are journaled; ${rows.length - placed} lines not reached`,
    );
    expect(result.stderr).not.toContain('stopping now');
    expect(result.stderr).toMatch(
      /re-run the same file to finish \(no line is bought twice\): energy --json order batch .*term\.csv --yes/,
    );
    // Every order the server has was reported on stdout: nothing was left in doubt.
    expect(results(result.stdout).filter((r) => r.status === 'created')).toHaveLength(ordersTo(rows).length);
    const pending = await world.run(['order', 'pending', '--json']);
    expect(JSON.parse(pending.stdout).items).toEqual([]);
  });
});
