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
