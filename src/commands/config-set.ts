/** `energy config set <name> [value]`: stores a setting in the profile; a secret is read from stdin or a hidden prompt. */
import { Command } from 'commander';
import { maskSecret } from '../client/redact.js';
import { SETTING_NAMES, isSecretSetting, parseSettingName, type SettingName } from '../config/names.js';
import { refuseSecretOnArgv, valueToStore } from '../config/setting-value.js';
import { shownValue as shown } from '../config/shown-value.js';
import type { ConfigStore } from '../config/store.js';
import { UsageError } from '../domain/errors.js';
import { askHidden, readAllStdin } from '../output/prompt.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface ConfigSetCommandOptions extends Pick<CommandServices, 'terminal' | 'printer'> {
  name: SettingName;
  /** The value given on the command line (never a secret's), else undefined: read from stdin or a prompt. */
  value: string | undefined;
  /** The selected profile's name (checked when asked). */
  profile: () => string;
  store: Pick<ConfigStore, 'set'>;
}

export function configSetCommand(
  ctx: Context,
  run: (options: ConfigSetCommandOptions) => Promise<void> = configSetRun,
): Command {
  return new Command('set')
    .description(
      'store a setting in the profile; secrets (api-secret, tron-api-key) and api-key without a value are read from stdin or a prompt',
    )
    .argument('<name>', SETTING_NAMES.join(' | '))
    .argument('[value]')
    .action((nameText: string, value: string | undefined) =>
      run({
        name: parseSettingName(nameText),
        value,
        profile: () => ctx.selectedProfile().name,
        store: ctx.store,
        ...ctx.services(),
      }),
    );
}

export async function configSetRun(opts: ConfigSetCommandOptions): Promise<void> {
  const { name, printer } = opts;
  refuseSecretOnArgv(name, opts.value);
  const stored = valueToStore(name, opts.value ?? (await readValue(opts)));
  const profile = opts.profile();
  await opts.store.set(profile, name, stored);
  if (printer.jsonMode) await printer.json({ profile, name, value: shown(name, stored) });
  else
    printer.note(`energy: ${name} set in profile ${profile}${isSecretSetting(name) ? ` (${maskSecret(stored)})` : ''}`);
}

async function readValue({ name, terminal }: ConfigSetCommandOptions): Promise<string> {
  if (name === 'base-url')
    throw new UsageError('give the base URL, e.g. energy config set base-url https://api.example.com');
  if (name === 'tron-node')
    throw new UsageError('give the TRON node URL, e.g. energy config set tron-node https://nile.trongrid.io');
  // A person at the keyboard is enough for a hidden prompt, even with stderr redirected.
  return terminal.stdin.isTTY === true ? askHidden(terminal, `${name}: `) : readAllStdin(terminal);
}
