/** A setting's value as the tool may show it: a secret masked (its last characters only), a state URL's password hidden. */
import { maskSecret } from '../client/redact.js';
import { isSecretSetting, type SettingName } from './names.js';
import { redactStateUrl } from './state-url.js';

export function shownValue(name: SettingName, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (name === 'state-url') return redactStateUrl(value);
  return isSecretSetting(name) ? maskSecret(value) : value;
}
