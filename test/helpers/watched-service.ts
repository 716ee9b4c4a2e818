/**
 * A service (`ensure … --every`) as the e2e suites watch one: spawned with --on-event running
 * test/fixtures/record-event.cjs, which writes each event to a file, in a state folder of its own, and killed
 * when the test ends; with `metrics`, on --metrics 0, its URL read from its note.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';
import type { RunningCli } from './cli.js';
import { metricsUrl } from './e2e.js';
import type { World } from './world.js';

const RECORD_EVENT = fileURLToPath(new URL('../fixtures/record-event.cjs', import.meta.url));

/** One event as the hook received it (its JSON). */
export type RecordedEvent = { event: string; address?: string; [key: string]: unknown };

export interface WatchedServices {
  stateDir: string;
  eventFile: string;
  /** The environment each service is spawned with: the caller's, and ENERGY_STATE_DIR. */
  env: Record<string, string>;
  /** The events the hooks have written so far, in order (none before the first). */
  events(): RecordedEvent[];
  /** Spawns `args` with the hook (and --metrics 0 where asked): killed when the test ends. */
  spawn(args: readonly string[], options?: { metrics?: boolean }): RunningCli;
  /** The same, with --metrics 0, and its metrics URL once announced. */
  spawnWithMetrics(args: readonly string[]): Promise<{ running: RunningCli; url: string }>;
}

/** Services of one test, sharing a state folder (named `prefix…`) and an event file. */
export function watchedServices(
  world: World,
  env: Record<string, string>,
  prefix = 'energy-service-',
): WatchedServices {
  const stateDir = mkdtempSync(join(tmpdir(), prefix));
  const eventFile = join(stateDir, 'events.ndjson');
  const withState = { ...env, ENERGY_STATE_DIR: stateDir };
  const spawn = (args: readonly string[], options: { metrics?: boolean } = {}): RunningCli => {
    const metrics = options.metrics === true ? ['--metrics', '0'] : [];
    const hook = ['--on-event', `${process.execPath} ${RECORD_EVENT} ${eventFile}`];
    const running = world.spawn([...args, ...metrics, ...hook], { env: withState });
    onTestFinished(() => void running.child.kill('SIGKILL'));
    return running;
  };
  return {
    stateDir,
    eventFile,
    env: withState,
    events: () =>
      (existsSync(eventFile) ? readFileSync(eventFile, 'utf8') : '')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as RecordedEvent),
    spawn,
    spawnWithMetrics: async (args) => {
      const running = spawn(args, { metrics: true });
      return { running, url: await metricsUrl(running) };
    },
  };
}
