/**
 * Where each setting comes from: command-line option, then environment, then the profile, then the
 * built-in default. The profile is read only when an option or variable has not already settled every
 * value, so that fully configured scripts never open the store.
 */
import { UsageError } from '../domain/errors.js';
import { API_SETTING_NAMES, SETTING_NAMES, parseProfileName, type ProfileValues, type SettingName } from './names.js';

export type SettingSource = 'option' | 'environment' | 'profile' | 'default';

export interface ResolvedSetting {
  value: string | undefined;
  source: SettingSource | undefined;
}

export interface Settings {
  profile: string;
  profileSource: SettingSource;
  values: Record<SettingName, ResolvedSetting>;
  /** false when the profile was read and the store has no such profile; undefined when it was not read. */
  profileFound?: boolean | undefined;
}

export interface SettingsInput {
  options: { profile?: string | undefined; baseUrl?: string | undefined; tronNode?: string | undefined };
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

const ENVIRONMENT: Record<SettingName, string> = {
  'base-url': 'ENERGY_BASE_URL',
  'api-key': 'ENERGY_API_KEY',
  'api-secret': 'ENERGY_API_SECRET',
  'tron-node': 'ENERGY_TRON_NODE',
  'tron-api-key': 'ENERGY_TRON_API_KEY',
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
  ] as const) {
    if (value === '')
      throw new UsageError(`${flag} is empty: give a URL, or leave the option out to use the profile's value`);
  }
  const values = {} as Record<SettingName, ResolvedSetting>;
  for (const name of SETTING_NAMES) {
    const fromOption = nonEmpty(
      name === 'base-url' ? input.options.baseUrl : name === 'tron-node' ? input.options.tronNode : undefined,
    );
    const fromEnv = nonEmpty(input.env[ENVIRONMENT[name]]);
    values[name] =
      fromOption !== undefined
        ? { value: fromOption, source: 'option' }
        : fromEnv !== undefined
          ? { value: fromEnv, source: 'environment' }
          : { value: undefined, source: undefined };
  }
  let profileFound: boolean | undefined;
  if ((input.needed ?? API_SETTING_NAMES).some((name) => values[name].value === undefined)) {
    const stored = await input.readProfile(profile);
    profileFound = stored !== undefined;
    for (const name of SETTING_NAMES) {
      const value = nonEmpty(stored?.[name]);
      if (values[name].value === undefined && value !== undefined) values[name] = { value, source: 'profile' };
    }
  }
  for (const name of SETTING_NAMES) {
    const fallback = DEFAULTS[name];
    if (values[name].value === undefined && fallback !== undefined)
      values[name] = { value: fallback, source: 'default' };
  }
  return { profile, profileSource, values, profileFound };
}

export function environmentVariableFor(name: SettingName): string {
  return ENVIRONMENT[name];
}
