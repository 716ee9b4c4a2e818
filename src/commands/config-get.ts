/** `energy config get <name>` and `energy config unset <name>`: a stored setting, read (masked) or removed. */
import { Command } from 'commander';
import { SETTING_NAMES, parseSettingName, type SettingName } from '../config/names.js';
import { shownValue as shown } from '../config/shown-value.js';
import type { ConfigStore } from '../config/store.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface ConfigGetCommandOptions extends Pick<CommandServices, 'printer'> {
  name: SettingName;
  /** The selected profile's name (checked when asked). */
  profile: () => string;
  store: Pick<ConfigStore, 'profile' | 'unset'>;
}

type Run = (options: ConfigGetCommandOptions) => Promise<void>;

function nameCommand(ctx: Context, verb: string, description: string, run: Run): Command {
  return new Command(verb)
    .description(description)
    .argument('<name>', SETTING_NAMES.join(' | '))
    .action((nameText: string) =>
      run({
        name: parseSettingName(nameText),
        profile: () => ctx.selectedProfile().name,
        store: ctx.store,
        ...ctx.services(),
      }),
    );
}

export function configGetCommand(ctx: Context, run: Run = configGetRun): Command {
  return nameCommand(ctx, 'get', 'print a stored setting (the secret masked)', run);
}

export function configUnsetCommand(ctx: Context, run: Run = configUnsetRun): Command {
  return nameCommand(ctx, 'unset', 'remove a setting from the profile', run);
}

export async function configGetRun({ name, printer, ...opts }: ConfigGetCommandOptions): Promise<void> {
  const profile = opts.profile();
  const value = shown(name, (await opts.store.profile(profile))[name]);
  if (printer.jsonMode) await printer.json({ profile, name, value: value ?? null });
  else if (value === undefined) printer.note(`energy: ${name} is not set in profile ${profile}`);
  else await printer.write(`${value}\n`);
}

export async function configUnsetRun({ name, printer, ...opts }: ConfigGetCommandOptions): Promise<void> {
  const profile = opts.profile();
  const removed = await opts.store.unset(profile, name);
  if (printer.jsonMode) await printer.json({ profile, name, removed });
  else printer.note(`energy: ${name} ${removed ? 'removed from' : 'was not set in'} profile ${profile}`);
}
