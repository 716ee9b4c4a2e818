/** A setting's value as the tool may show it: a secret masked (its last characters only). */
import { maskSecret } from '../client/redact.js';
import { isSecretSetting, type SettingName } from './names.js';

export function shownValue(name: SettingName, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return isSecretSetting(name) ? maskSecret(value) : value;
}
