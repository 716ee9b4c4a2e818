/** `energy config profiles`, `config delete-profile <profile>` and `config path`: the profile store itself. */
import { Command } from 'commander';
import { parseProfileName } from '../config/names.js';
import type { ConfigStore } from '../config/store.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface ConfigProfilesCommandOptions extends Pick<CommandServices, 'printer'> {
  store: Pick<ConfigStore, 'path' | 'profileNames' | 'deleteProfile'>;
}

export interface ConfigDeleteProfileCommandOptions extends ConfigProfilesCommandOptions {
  /** The profile it names (never taken from --profile or ENERGY_PROFILE). */
  profile: string;
}

type Run = (options: ConfigProfilesCommandOptions) => Promise<void>;

export function configProfilesCommand(ctx: Context, run: Run = configProfilesRun): Command {
  return new Command('profiles')
    .description('list the names of the stored profiles')
    .action(() => run({ store: ctx.store, ...ctx.services() }));
}

export function configDeleteProfileCommand(
  ctx: Context,
  run: (options: ConfigDeleteProfileCommandOptions) => Promise<void> = configDeleteProfileRun,
): Command {
  return new Command('delete-profile')
    .description('remove a profile and every setting in it (its secret too)')
    .argument('<profile>', 'the name of the profile (never taken from --profile or ENERGY_PROFILE)')
    .action((nameText: string) => run({ profile: parseProfileName(nameText), store: ctx.store, ...ctx.services() }));
}

export function configPathCommand(ctx: Context, run: Run = configPathRun): Command {
  return new Command('path')
    .description('print the config file path')
    .action(() => run({ store: ctx.store, ...ctx.services() }));
}

export async function configProfilesRun({ store, printer }: ConfigProfilesCommandOptions): Promise<void> {
  const names = await store.profileNames();
  if (printer.jsonMode) await printer.json({ profiles: names });
  else if (names.length === 0) printer.note(`energy: no profiles in ${store.path}`);
  else await printer.write(names.map((name) => `${name}\n`).join(''));
}

export async function configDeleteProfileRun({
  store,
  printer,
  profile,
}: ConfigDeleteProfileCommandOptions): Promise<void> {
  const removed = await store.deleteProfile(profile);
  if (printer.jsonMode) await printer.json({ profile, removed });
  else if (removed) printer.note(`energy: profile ${profile} removed from ${store.path}`);
  else {
    // As `unset` of a setting that is not there: nothing to do, exit 0; the known names catch a typo.
    const known = await store.profileNames();
    printer.note(
      `energy: there is no profile ${profile} (${known.length === 0 ? 'no profiles' : `known profiles: ${known.join(', ')}`})`,
    );
  }
}

export async function configPathRun({ store, printer }: ConfigProfilesCommandOptions): Promise<void> {
  await (printer.jsonMode ? printer.json({ path: store.path }) : printer.write(`${store.path}\n`));
}
