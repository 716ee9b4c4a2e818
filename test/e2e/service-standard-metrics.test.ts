/**
 * The service's standard series, scraped from a real `ensure --every --metrics` (issue 31): the build's
 * version, the process's start time and memory, the last cycle's duration, failures in a row, cycles by
 * `result`, and the last success reading the start until a first success; `--metrics 0:9464` refused
 * before any cycle, and every interface said in the note.
 */
import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadUrl, freshAddress, metricsUrl, until } from '../helpers/e2e.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite({ rateLimit: false });

function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}
const value = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : line.slice(series.length + 1);
};

function service(address: string, metrics: string, env: Record<string, string> = {}) {
  return world.spawn(['ensure', ...rentalArgs(address, '--yes', '--every', '300ms', '--metrics', metrics), '--json'], {
    env: {
      ENERGY_TRON_NODE: world.sandbox.url,
      ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-metrics-')),
      ...env,
    },
  });
}

describe('ensure --every --metrics: the standard series', () => {
  it('build, start time, memory, cycle duration and failures in a row; cycles by result; the last success from the start', async () => {
    const spawned = Date.now() / 1000;
    // The API is down: every cycle fails, and no success ever comes.
    const running = service(freshAddress(31_101), '0', { ENERGY_BASE_URL: await deadUrl(), ENERGY_RETRIES: '0' });
    const url = await metricsUrl(running);
    await until('two failed cycles', () => running.output().stdout.split('\n').filter(Boolean).length >= 2, 20_000);
    const text = await get(`${url}/metrics`);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    const cycles = result.stdout.split('\n').filter(Boolean).length;
    expect(value(text, 'energy_build_info{version="0.1.0"}')).toBe('1');
    const start = Number(value(text, 'process_start_time_seconds'));
    expect(start).toBeGreaterThan(spawned - 1);
    expect(start).toBeLessThan(spawned + 10);
    expect(Number(value(text, 'process_resident_memory_bytes'))).toBeGreaterThan(10_000_000);
    expect(value(text, 'energy_ensure_last_cycle_duration_seconds')).toMatch(/^\d+\.\d{3}$/);
    const failures = Number(value(text, 'energy_ensure_failures_in_a_row'));
    expect(failures).toBeGreaterThanOrEqual(2);
    expect(failures).toBeLessThanOrEqual(cycles);
    expect(value(text, 'energy_ensure_cycles_total{result="ok"}')).toBe('0');
    expect(value(text, 'energy_ensure_cycles_total{result="failed"}')).toBe(String(failures));
    expect(text).not.toMatch(/outcome=/);
    // Never a success: the service's start, within a second of the process's.
    const lastSuccess = Number(value(text, 'energy_ensure_last_success_timestamp_seconds'));
    expect(Math.abs(lastSuccess - start)).toBeLessThan(5);
    expect(lastSuccess).toBeGreaterThanOrEqual(start);
  }, 40_000);

  it('--metrics 0:9464 is refused before any cycle (exit 2), naming the every-interface form', async () => {
    const result = await world.run(
      ['ensure', ...rentalArgs(freshAddress(31_102), '--yes', '--every', '1h', '--metrics', '0:9464')],
      {
        env: { ENERGY_TRON_NODE: world.sandbox.url },
      },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/0\.0\.0\.0:9464 for every interface, not 0:9464/);
  });

  it('0.0.0.0 says every interface in its note, with a loopback URL', async () => {
    const running = service(freshAddress(31_103), '0.0.0.0:0');
    await metricsUrl(running);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /probes at http:\/\/127\.0\.0\.1:\d+\/livez and http:\/\/127\.0\.0\.1:\d+\/readyz \(listening on every interface, 0\.0\.0\.0/,
    );
  }, 30_000);
});
