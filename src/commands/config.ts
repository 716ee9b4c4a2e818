/** `energy config set|get|unset|list|profiles|delete-profile|path`: the profile store. Secrets are read from stdin or a hidden prompt. */
import { Command } from 'commander';
import { maskSecret } from '../client/redact.js';
import {
  SETTING_NAMES,
  isSecretSetting,
  parseProfileName,
  parseSettingName,
  type SettingName,
} from '../config/names.js';
import { refuseSecretOnArgv, valueToStore } from '../config/setting-value.js';
import { describeOrigin } from '../config/secret-sources.js';
import { redactStateUrl } from '../config/state-url.js';
import { DEFAULT_PROFILE, environmentVariableFor, type ResolvedSetting } from '../config/settings.js';
import { UsageError } from '../domain/errors.js';
import { askHidden, readAllStdin } from '../output/prompt.js';
import type { Context } from './context.js';

function shown(name: SettingName, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (name === 'state-url') return redactStateUrl(value);
  return isSecretSetting(name) ? maskSecret(value) : value;
}

export function configCommand(ctx: Context): Command {
  const config = new Command('config').description('read and change the profile store (see `energy config path`)');

  config
    .command('set')
    .description(
      'store a setting in the profile; secrets (api-secret, tron-api-key) and api-key without a value are read from stdin or a prompt',
    )
    .argument('<name>', SETTING_NAMES.join(' | '))
    .argument('[value]')
    .action(async (nameText: string, valueArg: string | undefined) => {
      const name = parseSettingName(nameText);
      refuseSecretOnArgv(name, valueArg);
      const stored = valueToStore(name, valueArg ?? (await readValue(ctx, name)));
      const profile = ctx.selectedProfile().name;
      await ctx.store.set(profile, name, stored);
      if (ctx.printer.jsonMode) await ctx.printer.json({ profile, name, value: shown(name, stored) });
      else
        ctx.printer.note(
          `energy: ${name} set in profile ${profile}${isSecretSetting(name) ? ` (${maskSecret(stored)})` : ''}`,
        );
    });

  config
    .command('get')
    .description('print a stored setting (the secret masked)')
    .argument('<name>', SETTING_NAMES.join(' | '))
    .action(async (nameText: string) => {
      const name = parseSettingName(nameText);
      const profile = ctx.selectedProfile().name;
      const value = shown(name, (await ctx.store.profile(profile))[name]);
      if (ctx.printer.jsonMode) await ctx.printer.json({ profile, name, value: value ?? null });
      else if (value === undefined) ctx.printer.note(`energy: ${name} is not set in profile ${profile}`);
      else await ctx.printer.write(`${value}\n`);
    });

  config
    .command('unset')
    .description('remove a setting from the profile')
    .argument('<name>', SETTING_NAMES.join(' | '))
    .action(async (nameText: string) => {
      const name = parseSettingName(nameText);
      const profile = ctx.selectedProfile().name;
      const removed = await ctx.store.unset(profile, name);
      if (ctx.printer.jsonMode) await ctx.printer.json({ profile, name, removed });
      else ctx.printer.note(`energy: ${name} ${removed ? 'removed from' : 'was not set in'} profile ${profile}`);
    });

  config
    .command('list')
    .description('show the settings in effect and where each comes from')
    .action(async () => {
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

  config
    .command('profiles')
    .description('list the names of the stored profiles')
    .action(async () => {
      const names = await ctx.store.profileNames();
      if (ctx.printer.jsonMode) await ctx.printer.json({ profiles: names });
      else if (names.length === 0) ctx.printer.note(`energy: no profiles in ${ctx.store.path}`);
      else await ctx.printer.write(names.map((name) => `${name}\n`).join(''));
    });

  config
    .command('delete-profile')
    .description('remove a profile and every setting in it (its secret too)')
    .argument('<profile>', 'the name of the profile (never taken from --profile or ENERGY_PROFILE)')
    .action(async (nameText: string) => {
      const profile = parseProfileName(nameText);
      const removed = await ctx.store.deleteProfile(profile);
      if (ctx.printer.jsonMode) await ctx.printer.json({ profile, removed });
      else if (removed) ctx.printer.note(`energy: profile ${profile} removed from ${ctx.store.path}`);
      else {
        // As `unset` of a setting that is not there: nothing to do, exit 0; the known names catch a typo.
        const known = await ctx.store.profileNames();
        ctx.printer.note(
          `energy: there is no profile ${profile} (${known.length === 0 ? 'no profiles' : `known profiles: ${known.join(', ')}`})`,
        );
      }
    });

  config
    .command('path')
    .description('print the config file path')
    .action(async () => {
      await (ctx.printer.jsonMode
        ? ctx.printer.json({ path: ctx.store.path })
        : ctx.printer.write(`${ctx.store.path}\n`));
    });

  return config;
}

async function readValue(ctx: Context, name: SettingName): Promise<string> {
  if (name === 'base-url')
    throw new UsageError('give the base URL, e.g. energy config set base-url https://api.example.com');
  if (name === 'tron-node')
    throw new UsageError('give the TRON node URL, e.g. energy config set tron-node https://nile.trongrid.io');
  // A person at the keyboard is enough for a hidden prompt, even with stderr redirected.
  return ctx.terminal.stdin.isTTY === true ? askHidden(ctx.terminal, `${name}: `) : readAllStdin(ctx.terminal);
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
