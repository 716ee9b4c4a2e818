/** `energy balance`: available and held TRX, and the account's status. */
import { Command } from 'commander';
import { balanceRows } from '../output/views.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export type BalanceCommandOptions = Pick<CommandServices, 'client' | 'printer'>;

export function balanceCommand(
  ctx: Context,
  run: (options: BalanceCommandOptions) => Promise<void> = balanceRun,
): Command {
  return new Command('balance')
    .description('show available and held TRX, and the account status')
    .action(() => run(ctx.services()));
}

/** The command's work, also run without commander by the light bundle (app/light-main.ts). */
export async function balanceRun(opts: BalanceCommandOptions): Promise<void> {
  const { printer } = opts;
  const balance = await (await opts.client()).balance();
  await (printer.jsonMode ? printer.json(balance) : printer.keyValue(balanceRows(balance)));
}
