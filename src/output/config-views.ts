/** `energy config list` as a key/value block: each setting's value and where it comes from, or how to set it. */
import type { Row } from './views.js';

export interface ListedSetting {
  name: string;
  /** The value as shown (a secret masked), or null when not set. */
  value: string | null;
  source: string | null;
  /** Where a secret is read from (a file, a command), described; never the secret. */
  readFrom: string | undefined;
  /** The command that sets it in the listed profile, and its ENERGY_* variable where it has one. */
  setCommand: string;
  variable: string | undefined;
}

export function configListRows(profile: string, profileSource: string, settings: readonly ListedSetting[]): Row[] {
  return [
    ['profile', `${profile} (${profileSource})`],
    ...settings.map((setting) => [setting.name, listedValue(setting)] as const),
  ];
}

function listedValue(setting: ListedSetting): string {
  if (setting.readFrom !== undefined) return `(read from the ${setting.readFrom}) (${setting.source})`;
  if (setting.value !== null) return `${setting.value} (${setting.source})`;
  return `(not set: ${setting.setCommand}${setting.variable === undefined ? '' : `, or ${setting.variable}`})`;
}
