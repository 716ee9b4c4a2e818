/** `energy config set|get|unset|list|profiles|delete-profile|path`: the profile store; the group only composes its verbs. */
import { Command } from 'commander';
import { configGetCommand, configUnsetCommand } from './config-get.js';
import { configListCommand } from './config-list.js';
import { configDeleteProfileCommand, configPathCommand, configProfilesCommand } from './config-profiles.js';
import { configSetCommand } from './config-set.js';
import type { Context } from './context.js';

export function configCommand(ctx: Context): Command {
  return new Command('config')
    .description('read and change the profile store (see `energy config path`)')
    .addCommand(configSetCommand(ctx))
    .addCommand(configGetCommand(ctx))
    .addCommand(configUnsetCommand(ctx))
    .addCommand(configListCommand(ctx))
    .addCommand(configProfilesCommand(ctx))
    .addCommand(configDeleteProfileCommand(ctx))
    .addCommand(configPathCommand(ctx));
}
