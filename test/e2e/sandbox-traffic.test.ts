/**
 * `energy sandbox --time-scale n --seed-address ADDR:transfers-per-hour=n --json` as a user runs it (issue 45):
 * its clock runs n times as fast (GET /v1/time), its node sends the address's transfers, and on SIGTERM one
 * JSON line says what they met. The address holds no energy, so each transfer burns 64,285 energy at 100 sun.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, baseEnv } from '../helpers/cli.js';
import { until } from '../helpers/e2e.js';

const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

describe('energy sandbox --time-scale with traffic', () => {
  it('plays its transfers on sandbox time and prints what they met on SIGTERM', async () => {
    const env = baseEnv(join(mkdtempSync(join(tmpdir(), 'energy-traffic-')), 'config'));
    const args = ['sandbox', '--port', '0', '--no-save', '--json', '--time-scale', '3600'];
    const child = spawn(process.execPath, [BIN, ...args, '--seed-address', `${ADDRESS}:transfers-per-hour=60`], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const facts = await until('the facts line', () =>
      stdout.includes('\n') ? JSON.parse(stdout.split('\n')[0]!) : undefined,
    );
    const time = async () =>
      ((await (await fetch(`${facts.base_url}/v1/time`)).json()) as { unix_time: number }).unix_time;
    const start = await time();
    // 3600×: an hour of sandbox time is a second; wait for more than ten minutes of it.
    await until('ten sandbox minutes', async () => ((await time()) - start > 660 ? true : undefined));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const last = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      traffic: { address: string; transfers: number; covered: number; burned_trx: string }[];
    };
    expect(last.traffic).toHaveLength(1);
    const [traffic] = last.traffic;
    expect(traffic!.address).toBe(ADDRESS);
    expect(traffic!.transfers).toBeGreaterThanOrEqual(11);
    expect(traffic!.covered).toBe(0);
    // 64,285 energy × 100 sun = 6.4285 TRX a transfer.
    const sun = BigInt(traffic!.transfers) * 6_428_500n;
    expect(traffic!.burned_trx).toBe(`${sun / 1_000_000n}.${(sun % 1_000_000n).toString().padStart(6, '0')}`);
  });
});
