/**
 * Services as the hosts of one fleet: each `ensure …` with a state folder of its own, the sandbox as its TRON
 * node and the suite's PostgreSQL as its state URL, killed when the test ends; stopped together with SIGTERM.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished } from 'vitest';
import type { RunningCli } from './cli.js';
import type { Cluster } from './pg-cluster.js';
import { until, type Probe } from './e2e.js';
import type { World } from './world.js';

/** `count` hosts, each running `energy ensure …args`. */
export function fleetServices(world: World, cluster: Cluster, count: number, args: readonly string[]): RunningCli[] {
  return Array.from({ length: count }, () => {
    const service = world.spawn(['ensure', ...args], {
      env: {
        ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
        ENERGY_TRON_NODE: world.sandbox.url,
        ...cluster.env,
      },
    });
    onTestFinished(() => void service.child.kill('SIGKILL'));
    return service;
  });
}

/** SIGTERM to every host; each ends with 0. */
export async function stopFleet(running: readonly RunningCli[]): Promise<void> {
  for (const service of running) service.child.kill('SIGTERM');
  for (const result of await Promise.all(running.map((service) => service.result)))
    expect(result.code, result.stderr).toBe(0);
}

/**
 * `until` over a fleet's hosts: on a timeout the error says, host by host, whether it still runs and the last
 * lines it wrote to stderr, so that a run that failed on a loaded machine says why.
 */
export async function untilHosts<T>(
  what: string,
  running: readonly RunningCli[],
  probe: Probe<T>,
  timeoutMs: number,
): Promise<T> {
  try {
    return await until(what, probe, timeoutMs);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${running.map(hostState).join('\n')}`, { cause: error });
  }
}

function hostState(service: RunningCli, index: number): string {
  const { exitCode, signalCode } = service.child;
  const state = exitCode !== null ? `exited ${exitCode}` : signalCode !== null ? `killed by ${signalCode}` : 'running';
  const tail = service.output().stderr.trimEnd().split('\n').slice(-6).join('\n    ');
  return `  host ${index + 1} (${state}), stderr's last lines:\n    ${tail}`;
}
