/**
 * `energy estimate transfer`: the energy a TRC-20 transfer needs, simulated by the TRON node, and how much
 * to rent for it (rounded up to the API's portion when the API can be asked).
 */
import { Command, Option } from 'commander';
import { roundUpToPortion } from '../domain/portions.js';
import { estimateRows, type EstimateView } from '../output/tron-views.js';
import { burnCost } from '../tron/burn-cost.js';
import { estimateTransfer } from '../tron/estimate-transfer.js';
import { USDT_MAINNET } from '../tron/tokens.js';
import type { TronNode } from '../tron/tron-node.js';
import { tokenUnits, tronAddress } from './arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

interface TransferOptions {
  from: string;
  to: string;
  token: string;
  amount: bigint;
}

export interface EstimateCommandOptions extends TransferOptions, Pick<CommandServices, 'client' | 'printer'> {
  tronNode: () => Promise<TronNode>;
  /** Whether the API's base URL and credentials are all set (else the portion is not asked for). */
  apiConfigured: () => Promise<boolean>;
}

/** The group `estimate`, and its verb `transfer` (whose run is `run`). */
export function estimateCommand(
  ctx: Context,
  run: (options: EstimateCommandOptions) => Promise<void> = estimateRun,
): Command {
  const estimate = new Command('estimate').description('estimate the energy an operation needs (TRON node)');
  estimate
    .command('transfer')
    .description('energy a TRC-20 transfer uses (simulated, nothing is sent) and the amount to rent')
    .addOption(
      new Option('--from <address>', 'sender: must hold at least --amount of the token')
        .argParser(tronAddress)
        .makeOptionMandatory(),
    )
    .addOption(new Option('--to <address>', 'recipient').argParser(tronAddress).makeOptionMandatory())
    .addOption(
      new Option('--token <contract>', 'TRC-20 contract address')
        .argParser(tronAddress)
        .default(USDT_MAINNET, 'USDT on mainnet'),
    )
    .addOption(
      new Option('--amount <units>', "amount in the token's smallest unit (USDT: 1000000 = 1 USDT)")
        .argParser(tokenUnits)
        .default(1n, '1'),
    )
    .action((parsed: TransferOptions) =>
      run({ ...parsed, tronNode: () => ctx.tronNode(), apiConfigured: () => apiConfigured(ctx), ...ctx.services() }),
    );
  return estimate;
}

export async function estimateRun(options: EstimateCommandOptions): Promise<void> {
  const { printer } = options;
  const node = await options.tronNode();
  const note = (line: string) => printer.note(line);
  const { from, to, token, amount } = options;
  const [result, portion] = await Promise.all([
    estimateTransfer(node, { from, to, token, amount }),
    portionSize(options),
  ]);
  // Read after the simulation: a transfer that would revert says so without a second request.
  const burn = await burnCost(node, result.energyUsed, note);
  const view: EstimateView = {
    from: options.from,
    to: options.to,
    token: options.token,
    amount: options.amount.toString(),
    energy_used: result.energyUsed,
    energy_penalty: result.energyPenalty,
    energy_to_rent: portion === null ? result.energyUsed : roundUpToPortion(result.energyUsed, portion),
    energy_per_portion: portion,
    burn_trx: burn,
  };
  await (printer.jsonMode ? printer.json(view) : printer.keyValue(estimateRows(view)));
}

async function apiConfigured(ctx: Context): Promise<boolean> {
  const { 'base-url': baseUrl, 'api-key': key, 'api-secret': secret } = (await ctx.settings()).values;
  return baseUrl.value !== undefined && key.value !== undefined && secret.value !== undefined;
}

/**
 * The API's energy_per_portion when the API is configured, else null. The estimate is the point of the
 * command: an API that cannot be asked costs the rounding (said on stderr), not the answer.
 */
async function portionSize(options: EstimateCommandOptions): Promise<number | null> {
  if (!(await options.apiConfigured())) return null;
  try {
    return (await (await options.client()).options()).energy_per_portion;
  } catch (error) {
    options.printer.note(
      `energy: not rounded to the API's portion: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
}
