/**
 * What `energy sandbox` runs once its command line is parsed (sandbox.ts): checks the profile it would write,
 * starts the server, saves its credentials, says where it listens, and at SIGINT or SIGTERM stops it and
 * reports what the seeded addresses' transfers met.
 */
import { maskSecret } from '../client/redact.js';
import { isLoopbackHost } from '../client/base-url.js';
import type { ConfigStore } from '../config/store.js';
import { UsageError } from '../domain/errors.js';
import { sandboxNote, sandboxRows } from '../output/sandbox-views.js';
import { trafficTable } from '../output/traffic-views.js';
import type { TronAccountSeed } from '../sandbox/types.js';
import type { CommandServices } from './command-services.js';

export interface SandboxParsed {
  port: number;
  host: string;
  save: boolean;
  seedOrders?: number;
  deliverAfterMs?: number;
  clockOffset?: number;
  rateLimit: boolean;
  balance?: string;
  seedAddress: Record<string, TronAccountSeed>;
  timeScale?: number;
}

export interface SandboxCommandOptions extends SandboxParsed, Pick<CommandServices, 'terminal' | 'printer'> {
  /** The profile --profile or ENERGY_PROFILE chose, and whether one did (else the sandbox's is "sandbox"). */
  selectedProfile: () => { name: string; explicit: boolean };
  store: ConfigStore;
  /** Resolves when the sandbox is to stop (SIGINT or SIGTERM). */
  stopped: () => Promise<unknown>;
}

export async function sandboxRun(options: SandboxCommandOptions): Promise<void> {
  const { printer } = options;
  const host = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  if (!isLoopbackHost(host)) throw new UsageError(`the sandbox listens on loopback only, not ${options.host}`);
  const chosen = options.selectedProfile();
  const profile = chosen.explicit ? chosen.name : 'sandbox';
  // Checked before listening, so that a refusal leaves no port bound and the profile untouched.
  const { refuseToOverwrite, saveSandboxProfile } = await import('../config/sandbox-profile.js');
  if (options.save) await refuseToOverwrite(options.store, profile);
  const { startSandbox } = await import('../sandbox/index.js');
  const env = options.terminal.env;
  const sandbox = await startSandbox({
    host: options.host,
    port: options.port,
    // Credentials from the environment let a script choose them, so that no secret needs printing.
    ...(env.ENERGY_API_KEY && { apiKey: env.ENERGY_API_KEY }),
    ...(env.ENERGY_API_SECRET && { apiSecret: env.ENERGY_API_SECRET }),
    ...(options.seedOrders !== undefined && { seedOrders: options.seedOrders }),
    ...(options.deliverAfterMs !== undefined && { deliverAfterMs: options.deliverAfterMs }),
    ...(options.clockOffset !== undefined && { clockOffsetSeconds: options.clockOffset }),
    ...(options.timeScale !== undefined && { timeScale: options.timeScale }),
    ...(!options.rateLimit && { rateLimit: false as const }),
    ...(options.balance !== undefined && { startingBalance: options.balance }),
    tronAccounts: options.seedAddress,
  }).catch((error: unknown) => {
    throw listenError(error, options);
  });
  if (options.save) {
    try {
      await saveSandboxProfile(options.store, profile, sandbox);
    } catch (error) {
      // A server nobody can use must not keep the port: stop it, then fail with the store's error.
      await sandbox.close();
      throw error;
    }
  }
  // A secret it made up and did not save is printed whole, or that sandbox could not be used; one
  // that came from ENERGY_API_SECRET is the user's own and stays masked.
  const showSecret = !options.save && !env.ENERGY_API_SECRET;
  const facts = {
    base_url: sandbox.url,
    api_key: sandbox.apiKey,
    api_secret: showSecret ? sandbox.apiSecret : maskSecret(sandbox.apiSecret),
    tron_node: sandbox.url,
    profile: options.save ? profile : null,
  };
  if (printer.jsonMode) await printer.json(facts);
  else {
    await printer.keyValue(sandboxRows(facts));
    printer.note(sandboxNote(facts));
  }
  await options.stopped();
  const traffic = sandbox.traffic();
  await sandbox.close();
  // What the seeded addresses' transfers met: one JSON line on stdout with --json, else a table.
  if (traffic.length === 0) return;
  await (printer.jsonMode ? printer.write(`${JSON.stringify({ traffic })}\n`) : printer.table(trafficTable(traffic)));
}

/** A port in use or not ours to take is the user's to change, not a bug. */
function listenError(error: unknown, options: SandboxParsed): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${options.host}:${options.port}`;
  if (code === 'EADDRINUSE') {
    return new UsageError(`cannot listen on ${where}: the port is in use (another sandbox?)`, {
      hint: 'choose another with --port <n>, or --port 0 for any free port',
    });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new UsageError(`cannot listen on ${where}: permission denied`, {
      hint: 'ports below 1024 need privileges: choose --port 1024 or above, or --port 0',
    });
  }
  if (code === 'EADDRNOTAVAIL') return new UsageError(`cannot listen on ${where}: no such address on this machine`);
  return error;
}
