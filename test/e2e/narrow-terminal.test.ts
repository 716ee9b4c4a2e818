/**
 * 80 and 60 columns, on a real pseudo-terminal: every table fits, and what a table cuts short (a failed
 * item's reason) is written whole on stderr, one line each, so that "(see above)" points at something.
 * `doctor` wraps its details on words, its head no wider than its words.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deadUrl, freshAddress } from '../helpers/e2e.js';
import { runInTerminal } from '../helpers/terminal.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const CONTRACT_REASON = `${USDT} is a smart contract: TRON does not delegate energy to contract accounts, so no rental can reach it`;
const dir = mkdtempSync(join(tmpdir(), 'energy-narrow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The screen's lines without colour, progress rewrites or line ends. */
const lines = (screen: string) =>
  screen
    .replace(/\x1b\[[0-9;]*[mK]/g, '')
    .split(/\r?\n/)
    .map((line) => line.replace(/^.*\r/, ''));
const width = (line: string) => [...line].length;
/** The table's lines: what is not a note, an error, a hint or a progress line. */
const tableLines = (screen: string) =>
  lines(screen).filter((line) => line !== '' && !/^(energy|hint|batch):/.test(line));

describe.each([80, 60])('at %i columns', (columns) => {
  const env = () => ({ ...world.env, LANG: 'C.UTF-8', ENERGY_TRON_NODE: world.sandbox.url });

  it('ensure: the table fits, and a failed address has its reason whole on one stderr line', async () => {
    const args = ['ensure', freshAddress(41_000 + columns), USDT, '--energy', '65000', '--hours', '1', '--yes'];
    const { code, screen } = await runInTerminal(args, env(), [], columns);
    expect(code).toBe(9);
    for (const line of tableLines(screen)) expect(width(line), line).toBeLessThanOrEqual(columns);
    expect(tableLines(screen).join('\n')).toMatch(/^TR7NHq…gjLj6t .* failed: TR7NH.*…$/m);
    expect(lines(screen)).toContain(`energy: ${USDT}: failed: ${CONTRACT_REASON}`);
    expect(lines(screen).at(-2)).toBe('energy: error: 1 of 2 addresses failed (see above); the others stand');
  });

  it('order batch: the table fits, and a failed line has its reason whole on one stderr line', async () => {
    const file = join(dir, `batch-${columns}.csv`);
    writeFileSync(file, `address,energy,hours\n${freshAddress(42_000 + columns)},65000,1\n`);
    const detail = 'the provider refuses this receiver today, for a reason that takes a whole sentence to say';
    world.sandbox.inject({
      kind: 'raw',
      status: 400,
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        code: 'RECEIVER_REFUSED',
        detail,
      }),
      times: 1,
      match: { method: 'POST', path: '/v1/energy/orders' },
    });
    const { code, screen } = await runInTerminal(['order', 'batch', file, '--yes'], env(), [], columns);
    world.sandbox.clearFaults();
    expect(code).toBe(9);
    for (const line of tableLines(screen)) expect(width(line), line).toBeLessThanOrEqual(columns);
    expect(lines(screen)).toContain(
      `energy: line 2: failed: POST /v1/energy/orders failed: RECEIVER_REFUSED: ${detail}`,
    );
    expect(tableLines(screen).join('\n')).toMatch(/^2 +failed +.*…$/m);
  });

  it('order list: the table fits, and a failed order has its failure code whole on one stderr line', async () => {
    // The sandbox fails every delivery to this address.
    const failing = [
      'order',
      'create',
      'TLVHRkzWNhPU1wSjqKTaTB8dqCb3pSU183',
      '--energy',
      '65000',
      '--hours',
      '1',
      '--yes',
    ];
    const placed = await world.run([...failing, '--json']);
    expect(placed.code, placed.stderr).toBe(0);
    const failedId = (JSON.parse(placed.stdout) as { id: string }).id;
    world.sandbox.advance(60 * 60 * 1000);
    const failedOrder = world.sandbox.orders().find((order) => order.id === failedId)!;
    expect(failedOrder.failure).not.toBeNull();
    for (let i = 0; i < 2; i += 1)
      await world.run([
        'order',
        'create',
        freshAddress(43_000 + columns * 10 + i),
        '--energy',
        '65000',
        '--hours',
        '1',
        '--yes',
      ]);
    for (const args of [
      ['order', 'list', '--limit', '5'],
      ['order', 'list', '--all'],
    ]) {
      const { code, screen } = await runInTerminal(args, env(), [], columns);
      expect(code).toBe(0);
      const table = tableLines(screen).filter((line) => !line.startsWith('more:'));
      // The failure's column is kept at 60 columns too (ENERGY goes there).
      expect(table[0]).toMatch(
        columns >= 80
          ? /^ID +.*ADDRESS +ENERGY +(HOURS +)?TOTAL_TRX +STATUS +FAILURE/
          : /^ID +ADDRESS +TOTAL_TRX +STATUS +FAILURE$/,
      );
      for (const line of table) expect(width(line), `${args.join(' ')}: ${line}`).toBeLessThanOrEqual(columns);
      // In its column, or, where the table leaves that out or cuts it, whole on stderr.
      const failure = failedOrder.failure!.code;
      expect(
        table.some((line) => line.startsWith(failedId.slice(0, 8)) && line.includes(` ${failure}`)) ||
          lines(screen).includes(`energy: order ${failedId}: failed: ${failure}`),
        `${args.join(' ')} at ${columns}: ${failure}`,
      ).toBe(true);
    }
  });

  it('doctor: the head is no wider than its words, and every detail wraps on words within the width', async () => {
    const doctorEnv = { ...env(), ENERGY_TRON_NODE: await deadUrl(), NO_COLOR: undefined };
    const { screen } = await runInTerminal(['doctor'], doctorEnv, [], columns);
    expect(screen).toContain('\x1b[1m'); // the head is styled: its padding once hid inside the style
    expect(lines(screen)[0]).toBe('CHECK        STATUS  DETAIL');
    for (const line of tableLines(screen)) expect(width(line), line).toBeLessThanOrEqual(columns);
    const json = await world.run(['doctor', '--json'], { env: { ENERGY_TRON_NODE: doctorEnv.ENERGY_TRON_NODE } });
    const checks = (JSON.parse(json.stdout) as { checks: { name: string; detail: string }[] }).checks;
    const text = tableLines(screen).join('\n');
    // No word is split across two lines (a path may break after a slash); the clock's seconds have moved on.
    const words = checks.filter((check) => check.name !== 'clock').flatMap((check) => check.detail.split(' '));
    for (const word of words.filter((w) => !w.includes('/'))) expect(text, word).toContain(word);
  });
});
