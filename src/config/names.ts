import { UsageError } from '../errors.js';

/** Settings a profile can hold, as typed on the command line. */
export const SETTING_NAMES = ['base-url', 'api-key', 'api-secret', 'tron-node', 'tron-api-key'] as const;
export type SettingName = (typeof SETTING_NAMES)[number];
/** What the Energy API commands need; the TRON node settings are read only by the commands that use the chain. */
export const API_SETTING_NAMES: readonly SettingName[] = ['base-url', 'api-key', 'api-secret'];
export const TRON_SETTING_NAMES: readonly SettingName[] = ['tron-node', 'tron-api-key'];
/** Never taken from the command line, never shown unmasked. */
export const SECRET_SETTING_NAMES: readonly SettingName[] = ['api-secret', 'tron-api-key'];
/** Base URLs, checked by the http-only-on-loopback rule before they are stored. */
export const URL_SETTING_NAMES: readonly SettingName[] = ['base-url', 'tron-node'];

export function isSecretSetting(name: SettingName): boolean {
  return SECRET_SETTING_NAMES.includes(name);
}
export type ProfileValues = Partial<Record<SettingName, string>>;

export function parseSettingName(text: string): SettingName {
  if ((SETTING_NAMES as readonly string[]).includes(text)) return text as SettingName;
  // Only up to a "=": `config set api-secret=VALUE` must not print the value.
  const shown = text.split('=')[0]!.slice(0, 40);
  throw new UsageError(`unknown setting "${shown}${shown === text ? '' : '…'}": use one of ${SETTING_NAMES.join(', ')}`);
}

// No dots: the store addresses nested keys by name, and a profile name should be safe in a file name.
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function parseProfileName(text: string): string {
  if (PROFILE_NAME.test(text)) return text;
  throw new UsageError(`invalid profile name "${text}": use letters, digits, "-" and "_" (at most 64, starting with a letter or digit)`);
}
