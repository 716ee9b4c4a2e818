import { Command } from 'commander';
import type { Context } from './context.js';
import { orderCreateCommand } from './order-create.js';
import { orderGetCommand } from './order-get.js';
import { orderListCommand } from './order-list.js';

export function orderCommand(ctx: Context): Command {
  return new Command('order')
    .description('create, get and list energy rental orders')
    .addCommand(orderCreateCommand(ctx))
    .addCommand(orderGetCommand(ctx))
    .addCommand(orderListCommand(ctx));
}
