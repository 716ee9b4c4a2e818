/** `energy config list`: the settings in effect and where each comes from (the group is config.ts). */
import { Command } from 'commander';
import { SETTING_NAMES, type SettingName } from '../config/names.js';
import { describeOrigin } from '../config/secret-sources.js';
import { DEFAULT_PROFILE, environmentVariableFor, type ResolvedSetting } from '../config/settings.js';
import { shownValue as shown } from '../config/shown-value.js';
import type { Context } from './context.js';

export function configListCommand(ctx: Context): Command {
  return new Command('list').description('show the settings in effect and where each comes from').action(async () => {
    // Sources only: a secret file or helper command is named, never read or run, and its secret never shown.
    const settings = await ctx.settingSources(SETTING_NAMES);
    const rows = SETTING_NAMES.map((name) => {
      const { value, source, origin } = settings.values[name];
      const from =
        origin === undefined
          ? {}
          : { from: origin.kind, [origin.kind]: origin.kind === 'file' ? origin.path : origin.command };
      return { name, value: shown(name, value) ?? null, source: source ?? null, ...from };
    });
    if (ctx.printer.jsonMode) {
      await ctx.printer.json({ profile: settings.profile, settings: rows });
      return;
    }
    await ctx.printer.keyValue([
      ['profile', `${settings.profile} (${settings.profileSource})`],
      ...SETTING_NAMES.map(
        (name, index) => [name, listedValue(name, rows[index]!, settings.values[name], settings.profile)] as const,
      ),
    ]);
  });
}

function listedValue(
  name: SettingName,
  row: { value: string | null; source: string | null },
  setting: ResolvedSetting,
  profile: string,
): string {
  if (setting.origin !== undefined) return `(read from the ${describeOrigin(setting.origin)}) (${row.source})`;
  if (row.value !== null) return `${row.value} (${row.source})`;
  const variable = environmentVariableFor(name);
  // The command as it must be typed for the profile listed, or it would set the value in another one.
  const set = `energy${profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`} config set ${name}`;
  return `(not set: ${set}${variable === undefined ? '' : `, or ${variable}`})`;
}
