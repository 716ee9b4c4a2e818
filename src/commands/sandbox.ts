/** `energy sandbox`: the local spec server, for trying the tool without spending anything. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { once } from 'node:events';
import type { TronAccountSeed } from '../sandbox/types.js';
import { parseSeedAddress } from '../sandbox/tron-seed.js';
import { nonNegativeInteger, portNumber, positiveInteger, signedInteger, trxAmount } from './arguments.js';
import type { Context } from './context.js';
import { sandboxRun, type SandboxCommandOptions, type SandboxParsed } from './sandbox-run.js';

export type { SandboxCommandOptions } from './sandbox-run.js';

/** Repeatable `--seed-address`: read here, so that a typo is exit 2 before the server starts. */
function collectSeed(text: string, previous: Record<string, TronAccountSeed>): Record<string, TronAccountSeed> {
  try {
    const { address, seed } = parseSeedAddress(text);
    return { ...previous, [address]: seed };
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export function sandboxCommand(
  ctx: Context,
  run: (options: SandboxCommandOptions) => Promise<void> = sandboxRun,
): Command {
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
    .action((parsed: SandboxParsed) =>
      run({
        ...parsed,
        selectedProfile: () => ctx.selectedProfile(),
        store: ctx.store,
        stopped: () => Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]),
        ...ctx.services(),
      }),
    );
}
