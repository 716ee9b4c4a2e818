/**
 * One e2e world: a sandbox on 127.0.0.1 (in this process, so tests can inject faults and inspect state),
 * a private config folder, and `run()` that spawns the CLI with credentials from the environment.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { baseEnv, runCli, spawnCli, type CliResult, type RunningCli, type RunOptions } from './cli.js';

export const ADDRESS = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
/** A second valid address, for tests on other branches. @public */
export const OTHER_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

export interface World {
  sandbox: Sandbox;
  configDir: string;
  /** The order journal's state folder (the default under HOME, which is private to the world). */
  stateDir: string;
  /** Environment with base URL and credentials from ENERGY_* variables. */
  env: Record<string, string>;
  run(args: readonly string[], options?: RunOptions): Promise<CliResult>;
  spawn(args: readonly string[], options?: RunOptions): RunningCli;
  close(): Promise<void>;
}

export async function createWorld(options: SandboxOptions = {}): Promise<World> {
  const sandbox = await startSandbox({ deliverAfterMs: 300, ...options });
  const configDir = join(mkdtempSync(join(tmpdir(), 'energy-e2e-')), 'config');
  const env = {
    ...baseEnv(configDir),
    ENERGY_BASE_URL: sandbox.url,
    ENERGY_API_KEY: sandbox.apiKey,
    ENERGY_API_SECRET: sandbox.apiSecret,
  };
  return {
    sandbox,
    configDir,
    stateDir: join(configDir, '.local', 'state', 'energy'),
    env,
    run: (args, runOptions = {}) => runCli(args, { ...runOptions, env: { ...env, ...runOptions.env } }),
    spawn: (args, runOptions = {}) => spawnCli(args, { ...runOptions, env: { ...env, ...runOptions.env } }),
    close: async () => {
      await sandbox.close();
      rmSync(join(configDir, '..'), { recursive: true, force: true });
    },
  };
}

/** Parses stdout as exactly one JSON document. */
export function json<T = Record<string, unknown>>(result: CliResult): T {
  return JSON.parse(result.stdout) as T;
}
