/**
 * What `config set` stores for a value typed or piped in: trimmed, a URL normalised (checked as the base URL
 * or TRON node rule says), a key or secret held to the characters a request can carry. Refused, with
 * nothing stored, otherwise.
 */
import { parseBaseUrl } from '../client/base-url.js';
import { UsageError } from '../domain/errors.js';
import { credentialProblem, isSecretSetting, type SettingName } from './names.js';
import { hasPassword, readStateUrl } from './state-url.js';

/** A secret on argv shows in `ps` and the shell history: refused, with the ways that do not. */
export function refuseSecretOnArgv(name: SettingName, value: string | undefined): void {
  if (name === 'state-url' && value !== undefined && hasPassword(value))
    throw new UsageError('refusing a state-url with a password as a command-line value', {
      hint: 'leave the password out and set PGPASSWORD or a PGPASSFILE, or pipe the URL in: `printf %s "$URL" | energy config set state-url`',
    });
  if (!isSecretSetting(name) || value === undefined) return;
  throw new UsageError(`refusing ${name} as a command-line value`, {
    hint: `a secret given on the command line shows in \`ps\` and the shell history: run \`energy config set ${name}\` and type it at the hidden prompt, or pipe it in, e.g. \`printf %s "$SECRET" | energy config set ${name}\``,
  });
}

export function valueToStore(name: SettingName, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new UsageError(`empty value for ${name}`);
  if (name === 'base-url' || name === 'tron-node')
    return parseBaseUrl(trimmed, name === 'tron-node' ? 'TRON node URL' : 'base URL')
      .toString()
      .replace(/\/$/, '');
  // Kept as typed once checked: WHATWG's form would put a stand-in host into libpq's `user@/db?host=/dir`.
  if (name === 'state-url') return readStateUrl(trimmed).text;
  if (name === 'api-secret-command' || name === 'tron-api-key-command') {
    if (/[\x00-\x1f\x7f]/.test(trimmed)) throw new UsageError(`${name} must be one line without control characters`);
    return trimmed;
  }
  const problem = credentialProblem(name, trimmed);
  if (problem !== undefined)
    throw new UsageError(`${problem}: nothing stored`, { hint: 'copy it again from where it was issued' });
  return trimmed;
}
