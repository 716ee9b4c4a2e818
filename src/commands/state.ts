/** `energy state status|import`: the state store; the group only composes its verbs. */
import { Command } from 'commander';
import type { Context } from './context.js';
import { stateImportCommand } from './state-import.js';
import { stateStatusCommand } from './state-status.js';

export function stateCommand(ctx: Context): Command {
  return new Command('state')
    .description('the state store (ENERGY_STATE_URL, or the state folder): its status; import a local journal')
    .addCommand(stateStatusCommand(ctx))
    .addCommand(stateImportCommand(ctx));
}
