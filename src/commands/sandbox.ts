/** `energy sandbox`: the local spec server, for trying the tool without spending anything. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { once } from 'node:events';
import { maskSecret } from '../client/redact.js';
import { isLoopbackHost } from '../client/base-url.js';
import { UsageError } from '../domain/errors.js';
import type { TronAccountSeed } from '../sandbox/types.js';
import type { TrafficReport } from '../sandbox/traffic.js';
import { trafficTable } from '../output/traffic-views.js';
import { parseSeedAddress } from '../sandbox/tron-seed.js';
import { nonNegativeInteger, portNumber, positiveInteger, signedInteger, trxAmount } from './arguments.js';
import type { Context } from './context.js';

interface SandboxCommandOptions {
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

/** Repeatable `--seed-address`: read here, so that a typo is exit 2 before the server starts. */
function collectSeed(text: string, previous: Record<string, TronAccountSeed>): Record<string, TronAccountSeed> {
  try {
    const { address, seed } = parseSeedAddress(text);
    return { ...previous, [address]: seed };
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export function sandboxCommand(ctx: Context): Command {
  return new Command('sandbox')
    .description('run a local server that implements the whole v1 API, and save its credentials in a profile')
    .addOption(new Option('--port <n>', 'port to listen on (0: any free port)').argParser(portNumber).default(8787))
    .option('--host <host>', 'loopback address to listen on', '127.0.0.1')
    .option('--no-save', 'do not write the base URL and credentials into the profile')
    .addOption(new Option('--seed-orders <n>', 'start with this many old orders').argParser(positiveInteger))
    .addOption(new Option('--deliver-after-ms <ms>', 'time from order to delivery').argParser(nonNegativeInteger))
    .addOption(new Option('--clock-offset <seconds>', "skew the server's clock").argParser(signedInteger))
    .addOption(
      new Option(
        '--time-scale <n>',
        'its clock runs n times as fast: a day of deliveries, ends and traffic in minutes',
      ).argParser(positiveInteger),
    )
    .option('--no-rate-limit', 'never answer 429 (benchmarks)')
    .addOption(new Option('--balance <trx>', 'starting balance (default 1000)').argParser(trxAmount))
    .addOption(
      new Option(
        '--seed-address <spec>',
        "a TRON account on the sandbox's node (repeatable): ADDRESS[:energy=N,…] with energy, used, bandwidth-used, usdt (units), transfers-per-hour (its node sends them), inactive",
      )
        .argParser(collectSeed)
        .default({}, 'none'),
    )
    .action(async (options: SandboxCommandOptions) => {
      const host = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
      if (!isLoopbackHost(host)) throw new UsageError(`the sandbox listens on loopback only, not ${options.host}`);
      const chosen = ctx.selectedProfile();
      const profile = chosen.explicit ? chosen.name : 'sandbox';
      // Checked before listening, so that a refusal leaves no port bound and the profile untouched.
      const { refuseToOverwrite, saveSandboxProfile } = await import('../config/sandbox-profile.js');
      if (options.save) await refuseToOverwrite(ctx.store, profile);
      const { startSandbox } = await import('../sandbox/index.js');
      const env = ctx.terminal.env;
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
          await saveSandboxProfile(ctx.store, profile, sandbox);
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
      if (ctx.printer.jsonMode) await ctx.printer.json(facts);
      else {
        await ctx.printer.keyValue([
          ['Base URL', sandbox.url],
          ['API key', sandbox.apiKey],
          ['API secret', `${facts.api_secret}${options.save ? ` (saved in profile ${profile})` : ''}`],
          ['TRON node', `${sandbox.url}/wallet/…`],
        ]);
        ctx.printer.note(
          options.save
            ? `energy: try \`energy --profile ${profile} balance\`; Ctrl-C stops the sandbox`
            : 'energy: Ctrl-C stops the sandbox',
        );
      }
      await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
      const traffic = sandbox.traffic();
      await sandbox.close();
      if (traffic.length > 0) await printTraffic(ctx, traffic);
    });
}

/** What the seeded addresses' transfers met: one JSON line on stdout with --json, else a table. */
async function printTraffic(ctx: Context, traffic: readonly TrafficReport[]): Promise<void> {
  if (ctx.printer.jsonMode) return ctx.printer.write(`${JSON.stringify({ traffic })}\n`);
  await ctx.printer.table(trafficTable(traffic));
}

/** A port in use or not ours to take is the user's to change, not a bug. */
function listenError(error: unknown, options: SandboxCommandOptions): unknown {
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
