/**
 * Where each setting comes from: command-line option, then environment, then the profile, then the
 * built-in default. The profile is read only when an option or variable has not already settled every
 * value, so that fully configured scripts never open the store.
 */
import { UsageError } from '../domain/errors.js';
import {
  API_SETTING_NAMES,
  COMMAND_SECRETS,
  SETTING_NAMES,
  parseProfileName,
  type ProfileValues,
  type SettingName,
} from './names.js';
import { hasPassword, readStateUrl, type StateUrl } from './state-url.js';

export type SettingSource = 'option' | 'environment' | 'profile' | 'default';

/** A secret not read yet: a file named by the environment, or a helper command in the profile. */
export type SecretOrigin = { kind: 'file'; path: string } | { kind: 'command'; command: string };

export interface ResolvedSetting {
  value: string | undefined;
  source: SettingSource | undefined;
  /** Set when the value comes from a file or a command: read only when a command needs it (secret-sources.ts). */
  origin?: SecretOrigin | undefined;
}

export interface Settings {
  profile: string;
  profileSource: SettingSource;
  values: Record<SettingName, ResolvedSetting>;
  /** false when the profile was read and the store has no such profile; undefined when it was not read. */
  profileFound?: boolean | undefined;
}

export interface SettingsInput {
  options: {
    profile?: string | undefined;
    baseUrl?: string | undefined;
    tronNode?: string | undefined;
    stateUrl?: string | undefined;
  };
  env: NodeJS.ProcessEnv;
  /** Read only when needed; resolves to undefined when the store has no such profile. */
  readProfile: (name: string) => Promise<ProfileValues | undefined>;
  /**
   * The settings the command needs (default: the Energy API's): the profile is read only when one of these
   * is not settled by an option or the environment. Others are still filled in when the profile is read.
   */
  needed?: readonly SettingName[];
}

export const DEFAULT_PROFILE = 'default';

const ENVIRONMENT: Partial<Record<SettingName, string>> = {
  'base-url': 'ENERGY_BASE_URL',
  'api-key': 'ENERGY_API_KEY',
  'api-secret': 'ENERGY_API_SECRET',
  'tron-node': 'ENERGY_TRON_NODE',
  'tron-api-key': 'ENERGY_TRON_API_KEY',
  'state-url': 'ENERGY_STATE_URL',
};

/** Built-in values, used when neither option, environment nor profile gives one. */
export const DEFAULT_TRON_NODE = 'https://api.trongrid.io';
const DEFAULTS: Partial<Record<SettingName, string>> = { 'tron-node': DEFAULT_TRON_NODE };

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

export function resolveProfileName(
  options: SettingsInput['options'],
  env: NodeJS.ProcessEnv,
): {
  profile: string;
  source: SettingSource;
} {
  // `--profile "$ENV"` with the variable unset must not quietly fall back to the default account.
  if (options.profile === '')
    throw new UsageError('--profile is empty: give a profile name, or leave the option out for "default"');
  if (nonEmpty(options.profile)) return { profile: parseProfileName(options.profile!), source: 'option' };
  if (nonEmpty(env.ENERGY_PROFILE)) return { profile: parseProfileName(env.ENERGY_PROFILE!), source: 'environment' };
  return { profile: DEFAULT_PROFILE, source: 'default' };
}

export async function resolveSettings(input: SettingsInput): Promise<Settings> {
  const { profile, source: profileSource } = resolveProfileName(input.options, input.env);
  // One rule for every option: an empty value (`--base-url "$UNSET"`) is refused, never a silent fallback.
  for (const [flag, value] of [
    ['--base-url', input.options.baseUrl],
    ['--tron-node', input.options.tronNode],
    ['--state-url', input.options.stateUrl],
  ] as const) {
    if (value === '')
      throw new UsageError(`${flag} is empty: give a URL, or leave the option out to use the profile's value`);
  }
  // A password on argv shows in `ps` and the shell history: never taken from there.
  if (input.options.stateUrl !== undefined && hasPassword(input.options.stateUrl))
    throw new UsageError('refusing --state-url with a password in it', {
      hint: 'leave the password out of the URL and set PGPASSWORD or a PGPASSFILE, or give the URL in ENERGY_STATE_URL or the state-url setting',
    });
  const values = {} as Record<SettingName, ResolvedSetting>;
  for (const name of SETTING_NAMES) {
    const fromOption = nonEmpty(
      name === 'base-url'
        ? input.options.baseUrl
        : name === 'tron-node'
          ? input.options.tronNode
          : name === 'state-url'
            ? input.options.stateUrl
            : undefined,
    );
    const variable = ENVIRONMENT[name];
    const fromEnv = variable === undefined ? undefined : nonEmpty(input.env[variable]);
    values[name] =
      fromOption !== undefined
        ? { value: fromOption, source: 'option' }
        : fromEnv !== undefined
          ? { value: fromEnv, source: 'environment' }
          : { value: undefined, source: undefined };
  }
  // Environment over profile, as for every value: ENERGY_API_SECRET, then ENERGY_API_SECRET_FILE.
  for (const [name, { fileVariable }] of Object.entries(COMMAND_SECRETS)) {
    const path = nonEmpty(input.env[fileVariable]);
    if (values[name as SettingName].value === undefined && path !== undefined)
      values[name as SettingName] = { value: undefined, source: 'environment', origin: { kind: 'file', path } };
  }
  const settled = (name: SettingName) => values[name].value !== undefined || values[name].origin !== undefined;
  let profileFound: boolean | undefined;
  if (!(input.needed ?? API_SETTING_NAMES).every(settled)) {
    const stored = await input.readProfile(profile);
    profileFound = stored !== undefined;
    for (const name of SETTING_NAMES) {
      const value = nonEmpty(stored?.[name]);
      if (!settled(name) && value !== undefined) values[name] = { value, source: 'profile' };
    }
    // In the profile, a stored secret over a helper command: `config unset` one of them to switch.
    for (const [name, { command: commandName }] of Object.entries(COMMAND_SECRETS)) {
      const command = nonEmpty(stored?.[commandName]);
      if (!settled(name as SettingName) && command !== undefined)
        values[name as SettingName] = { value: undefined, source: 'profile', origin: { kind: 'command', command } };
    }
  }
  for (const name of SETTING_NAMES) {
    const fallback = DEFAULTS[name];
    if (values[name].value === undefined && fallback !== undefined)
      values[name] = { value: fallback, source: 'default' };
  }
  return { profile, profileSource, values, profileFound };
}

export function environmentVariableFor(name: SettingName): string | undefined {
  return ENVIRONMENT[name];
}

/** The state URL in effect, read and checked once (exit 2 when it is not one libpq takes); undefined: none set. */
export function stateUrlSetting(settings: Settings): StateUrl | undefined {
  const text = settings.values['state-url'].value;
  return text === undefined ? undefined : readStateUrl(text);
}
