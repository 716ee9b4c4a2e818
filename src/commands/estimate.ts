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
import { tokenUnits, tronAddress } from './arguments.js';
import type { Context } from './context.js';

interface TransferOptions {
  from: string;
  to: string;
  token: string;
  amount: bigint;
}

export function estimateCommand(ctx: Context): Command {
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
    .action(async (options: TransferOptions) => {
      const node = await ctx.tronNode();
      const note = (line: string) => ctx.printer.note(line);
      const [result, portion] = await Promise.all([estimateTransfer(node, options), portionSize(ctx)]);
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
      await (ctx.printer.jsonMode ? ctx.printer.json(view) : ctx.printer.keyValue(estimateRows(view)));
    });
  return estimate;
}

/**
 * The API's energy_per_portion when the API is configured, else null. The estimate is the point of the
 * command: an API that cannot be asked costs the rounding (said on stderr), not the answer.
 */
async function portionSize(ctx: Context): Promise<number | null> {
  const settings = await ctx.settings();
  const { 'base-url': baseUrl, 'api-key': key, 'api-secret': secret } = settings.values;
  if (baseUrl.value === undefined || key.value === undefined || secret.value === undefined) return null;
  try {
    return (await (await ctx.client()).options()).energy_per_portion;
  } catch (error) {
    ctx.printer.note(
      `energy: not rounded to the API's portion: ${error instanceof Error ? error.message : String(error)}`,
    );
    return null;
  }
}
