import { Command } from 'commander';
import { balanceRows } from '../output/views.js';
import type { Context } from './context.js';

export function balanceCommand(ctx: Context): Command {
  return new Command('balance')
    .description('show available and held TRX, and the account status')
    .action(() => showBalance(ctx));
}

/** The command's work, also run without commander by the light bundle (app/light-main.ts). */
export async function showBalance(ctx: Context): Promise<void> {
  const balance = await (await ctx.client()).balance();
  await (ctx.printer.jsonMode ? ctx.printer.json(balance) : ctx.printer.keyValue(balanceRows(balance)));
}
