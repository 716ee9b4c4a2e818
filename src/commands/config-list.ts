/** `energy config list`: the settings in effect and where each comes from (the group is config.ts). */
import { Command } from 'commander';
import { SETTING_NAMES } from '../config/names.js';
import { describeOrigin } from '../config/secret-sources.js';
import { DEFAULT_PROFILE, environmentVariableFor, type Settings } from '../config/settings.js';
import { shownValue as shown } from '../config/shown-value.js';
import { configListRows } from '../output/config-views.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface ConfigListCommandOptions extends Pick<CommandServices, 'printer'> {
  /** Where each setting comes from, without reading a secret file or running a helper command. */
  settingSources: () => Promise<Settings>;
}

export function configListCommand(
  ctx: Context,
  run: (options: ConfigListCommandOptions) => Promise<void> = configListRun,
): Command {
  return new Command('list')
    .description('show the settings in effect and where each comes from')
    .action(() => run({ settingSources: () => ctx.settingSources(SETTING_NAMES), ...ctx.services() }));
}

export async function configListRun(opts: ConfigListCommandOptions): Promise<void> {
  const { printer } = opts;
  // Sources only: a secret file or helper command is named, never read or run, and its secret never shown.
  const settings = await opts.settingSources();
  const { profile } = settings;
  const listed = SETTING_NAMES.map((name) => {
    const { value, source, origin } = settings.values[name];
    return { name, value: shown(name, value) ?? null, source: source ?? null, origin };
  });
  if (printer.jsonMode) {
    const rows = listed.map(({ origin, ...row }) =>
      origin === undefined
        ? row
        : { ...row, from: origin.kind, [origin.kind]: origin.kind === 'file' ? origin.path : origin.command },
    );
    return printer.json({ profile, settings: rows });
  }
  // The command as it must be typed for the profile listed, or it would set the value in another one.
  const set = `energy${profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`} config set`;
  const rows = listed.map(({ origin, ...row }) => ({
    ...row,
    readFrom: origin === undefined ? undefined : describeOrigin(origin),
    setCommand: `${set} ${row.name}`,
    variable: environmentVariableFor(row.name),
  }));
  await printer.keyValue(configListRows(profile, settings.profileSource, rows));
}
