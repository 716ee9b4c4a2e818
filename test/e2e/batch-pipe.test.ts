/**
 * `order batch` from a pipe named by a path: bash's process substitution (`order batch <(grep … file)`,
 * which bash passes as /dev/fd/63) and a FIFO made with mkfifo are read as streams, as standard input is,
 * and their lines are named as stdin's (a pipe has no name of its own). A FIFO with no writer yet waits for
 * one, and a signal still ends the wait. Orders counted at the sandbox.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { tempDirForSuite, worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ startingBalance: '1000.000000', deliverAfterMs: 60_000 });
const dir = tempDirForSuite('energy-batch-pipe-');
let next = 40_200;
const lines = (count: number) =>
  Array.from({ length: count }, () => `${freshAddress((next += 1))},65000,1`).join('\n') + '\n';
const ordersTo = (text: string) => world.sandbox.orders().filter((order) => text.includes(order.address)).length;
const statuses = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { status: string }).status);

describe('order batch from a pipe', () => {
  it('<(…): every line ordered; the same lines again on stdin are the same orders (skipped)', async () => {
    const body = lines(2);
    const file = join(dir.path, 'payouts.csv');
    writeFileSync(file, `address,energy,hours\n${body}`);
    const script = 'exec "$0" "$1" order batch <(cat "$2") --yes --json';
    const piped = await world.run([], { launch: ['bash', '-c', script, process.execPath, BIN, file] });
    expect(piped.code, piped.stderr).toBe(0);
    expect(statuses(piped.stdout)).toEqual(['created', 'created']);
    expect(ordersTo(body)).toBe(2);
    const again = await world.run(['order', 'batch', '-', '--yes', '--json'], {
      input: `address,energy,hours\n${body}`,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(statuses(again.stdout)).toEqual(['skipped', 'skipped']);
    expect(ordersTo(body)).toBe(2);
  }, 30_000);

  it('a FIFO: waits for its writer, then orders what it wrote', async () => {
    const body = lines(1);
    const fifo = join(dir.path, 'lines.fifo');
    execFileSync('mkfifo', [fifo]);
    const running = world.spawn(['order', 'batch', fifo, '--yes', '--json']);
    onTestFinished(() => void running.child.kill('SIGKILL'));
    // Opening the FIFO to write waits for the batch to open it to read: proof that it reads it.
    await writeFile(fifo, `address,energy,hours\n${body}`);
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(statuses(result.stdout)).toEqual(['created']);
    expect(ordersTo(body)).toBe(1);
  }, 30_000);

  it('a FIFO nobody writes to: SIGTERM ends the wait (exit 143), nothing bought', async () => {
    const fifo = join(dir.path, 'silent.fifo');
    execFileSync('mkfifo', [fifo]);
    const before = world.sandbox.orders().length;
    const running = world.spawn(['order', 'batch', fifo, '--yes']);
    onTestFinished(() => void running.child.kill('SIGKILL'));
    // The options are read before the file: once asked for, the batch is at its input.
    await until('the batch reads its input', () => world.sandbox.requestCount('/v1/energy/options') > 0, 20_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code).toBe(143);
    expect(world.sandbox.orders().length).toBe(before);
  }, 30_000);
});
