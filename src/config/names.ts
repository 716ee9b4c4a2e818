import { UsageError } from '../domain/errors.js';
import { PROFILE_NAME_TEXT } from '../domain/patterns.js';
import { printable } from '../domain/printable.js';

/** Settings a profile can hold, as typed on the command line. */
export const SETTING_NAMES = [
  'base-url',
  'api-key',
  'api-secret',
  'api-secret-command',
  'tron-node',
  'tron-api-key',
  'tron-api-key-command',
  'state-url',
] as const;
export type SettingName = (typeof SETTING_NAMES)[number];
/** What the Energy API commands need; the TRON node settings are read only by the commands that use the chain. */
export const API_SETTING_NAMES: readonly SettingName[] = ['base-url', 'api-key', 'api-secret'];
export const TRON_SETTING_NAMES: readonly SettingName[] = ['tron-node', 'tron-api-key'];
/** Where the journal and the ensure lock are kept: the state folder, or a shared database. */
export const STATE_SETTING_NAMES: readonly SettingName[] = ['state-url'];
/** A secret that a helper command can print (`<name>-command`), or a file can hold (`ENERGY_…_FILE`). */
export type CommandSecretName = 'api-secret' | 'tron-api-key';
export const COMMAND_SECRETS: Record<CommandSecretName, { command: SettingName; fileVariable: string }> = {
  'api-secret': { command: 'api-secret-command', fileVariable: 'ENERGY_API_SECRET_FILE' },
  'tron-api-key': { command: 'tron-api-key-command', fileVariable: 'ENERGY_TRON_API_KEY_FILE' },
};
/** Never taken from the command line, never shown unmasked. */
export const SECRET_SETTING_NAMES: readonly SettingName[] = ['api-secret', 'tron-api-key'];

export function isSecretSetting(name: SettingName): boolean {
  return SECRET_SETTING_NAMES.includes(name);
}
export type ProfileValues = Partial<Record<SettingName, string>>;

export function parseSettingName(text: string): SettingName {
  if ((SETTING_NAMES as readonly string[]).includes(text)) return text as SettingName;
  // Only up to a "=": `config set api-secret=VALUE` must not print the value.
  const shown = text.split('=')[0]!.slice(0, 40);
  throw new UsageError(
    `unknown setting "${shown}${shown === text ? '' : '…'}": use one of ${SETTING_NAMES.join(', ')}`,
  );
}

export function parseProfileName(text: string): string {
  if (PROFILE_NAME_TEXT.test(text)) return text;
  throw new UsageError(
    `invalid profile name "${printable(text, 70)}": use letters, digits, "-" and "_" (at most 64, starting with a letter or digit)`,
  );
}

/**
 * Why a credential cannot be used, or undefined when it can. The keys travel in headers (Authorization,
 * TRON-PRO-API-KEY), so keys and secret are held to printable ASCII (the secret may contain spaces): a line break, a
 * control character or a non-ASCII letter is a paste accident, better refused when set than on every call.
 */
export function credentialProblem(name: 'api-key' | 'api-secret' | 'tron-api-key', value: string): string | undefined {
  // Keys go in headers as one token; only the API secret (never sent, only used to sign) may hold spaces.
  const lowest = name === 'api-secret' ? 0x20 : 0x21;
  // Every run that signs reads one: the usual answer without a regular expression a character (one run
  // through V8's regexp interpreter, then compiled to machine code, at every start: issue 48).
  if (inAsciiRange(value, lowest)) return undefined;
  const allowed = name === 'api-secret' ? /^[\x20-\x7e]$/ : /^[\x21-\x7e]$/;
  const chars = [...value];
  const index = chars.findIndex((char) => !allowed.test(char));
  if (index === -1) return undefined;
  const char = chars[index]!;
  const what =
    char === '\n' || char === '\r'
      ? 'a line break'
      : char === ' '
        ? 'a space'
        : /[\x00-\x1f\x7f-\x9f]/.test(char)
          ? 'a control character'
          : 'a character that is not ASCII';
  return `${name} contains ${what} (character ${index + 1} of ${chars.length}), which cannot be sent in a request`;
}

/** Every code unit of `text` from `lowest` to 0x7e (`~`). */
function inAsciiRange(text: string, lowest: number): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < lowest || code > 0x7e) return false;
  }
  return true;
}
