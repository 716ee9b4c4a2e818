import { Command } from 'commander';
import { mentionUnsettledOrders } from '../ordering/unsettled-notice.js';
import type { Context } from './context.js';
import { orderBatchCommand } from './order-batch.js';
import { orderCreateCommand } from './order-create.js';
import { orderDropCommand } from './order-drop.js';
import { orderGetCommand } from './order-get.js';
import { orderListCommand } from './order-list.js';
import { orderPendingCommand } from './order-pending.js';
import { orderRecoverCommand } from './order-recover.js';
import { orderWaitCommand } from './order-wait.js';

/** Verbs that are themselves about unsettled records, and so do not mention them. */
const ABOUT_THE_JOURNAL = new Set(['pending', 'recover', 'drop']);

export function orderCommand(ctx: Context): Command {
  return new Command('order')
    .description('create, follow, list and recover energy rental orders')
    .addCommand(orderCreateCommand(ctx))
    .addCommand(orderGetCommand(ctx))
    .addCommand(orderWaitCommand(ctx))
    .addCommand(orderListCommand(ctx))
    .addCommand(orderPendingCommand(ctx))
    .addCommand(orderRecoverCommand(ctx))
    .addCommand(orderDropCommand(ctx))
    .addCommand(orderBatchCommand(ctx))
    .hook('preAction', async (_group, action) => {
      if (ABOUT_THE_JOURNAL.has(action.name())) return;
      const notice = {
        pendingCount: async (exceptId?: string) => (await ctx.journal()).pendingCount(exceptId),
        orderCommand: (verb: string) => ctx.invocation('order', verb),
        note: (line: string) => ctx.printer.note(line),
        sentFrom: async () =>
          (await ctx.state()).kind === 'postgresql' ? 'from the hosts sharing the state store' : 'from this machine',
      };
      await mentionUnsettledOrders(notice, action.opts<{ clientRequestId?: string }>().clientRequestId);
    });
}
