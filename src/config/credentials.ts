/**
 * The checks on the credentials and account a command is about to use, and their messages, in one place:
 * a key or secret that cannot travel in a header, a profile that does not exist, a missing base URL or
 * credentials. Each says where the value came from and what to run to fix it.
 */
import { parseBaseUrl } from '../client/base-url.js';
import { AuthError, MissingCredentialsError, UsageError } from '../domain/errors.js';
import { credentialProblem } from './names.js';
import { describeOrigin } from './secret-sources.js';
import { environmentVariableFor, type Settings } from './settings.js';

type CredentialName = 'api-key' | 'api-secret' | 'tron-api-key';

/** Where a credential came from (a file, a command, a variable, a profile) and how to set it there again. */
export interface CredentialSource {
  where: string;
  fix: string;
}

/** Where the credential `name` in `settings` came from; undefined when it is not set. */
export function credentialSource(settings: Settings, name: CredentialName): CredentialSource | undefined {
  const { value, source, origin } = settings.values[name];
  if (value === undefined) return undefined;
  if (origin !== undefined)
    return {
      where: describeOrigin(origin),
      fix: `fix what the ${origin.kind} gives (one trailing line break is removed)`,
    };
  if (source === 'environment')
    return { where: `the ${environmentVariableFor(name)} variable`, fix: `set ${environmentVariableFor(name)} again` };
  return {
    where: `profile ${settings.profile}`,
    fix: `set it again: energy --profile ${settings.profile} config set ${name}`,
  };
}

/** Throws when a credential in `settings` cannot be sent (a line break, a control character, non-ASCII). */
export function assertUsableCredentials(settings: Settings, names: readonly CredentialName[]): void {
  for (const name of names) {
    const { value } = settings.values[name];
    const problem = value === undefined ? undefined : credentialProblem(name, value);
    const from = credentialSource(settings, name);
    if (problem === undefined || from === undefined) continue;
    throw new AuthError(`${problem} (from ${from.where})`, { hint: from.fix });
  }
}

/** The API key, once both it and the secret are there (orders need them before anything is journaled). */
export function requireApiKey(settings: Settings): string {
  const apiKey = settings.values['api-key'].value;
  if (apiKey === undefined || settings.values['api-secret'].value === undefined)
    throw missingCredentialsError(settings);
  return apiKey;
}

/** Which of the key and secret is missing, and the commands that set it in the profile in use. */
export function missingCredentialsError(settings: Settings): MissingCredentialsError {
  const missing = (['api-key', 'api-secret'] as const).filter((name) => settings.values[name].value === undefined);
  const what = missing.length === 2 ? 'API credentials' : missing[0] === 'api-key' ? 'API key' : 'API secret';
  const where = settings.profileSource === 'default' ? '' : ` in profile ${settings.profile}`;
  const profile = settings.profileSource === 'option' ? ` --profile ${settings.profile}` : '';
  const commands = missing.map((name) => `\`energy${profile} config set ${name}\``).join(' and ');
  const variables = missing.map(environmentVariableFor).join(' and ');
  return new MissingCredentialsError(
    `no ${what}${where}`,
    `set ${missing.length === 2 ? 'them' : 'it'} with ${commands}, or ${variables}`,
  );
}

/**
 * The API base URL, or the reason there is none: a profile named by --profile or ENERGY_PROFILE that the
 * store does not have (said as such, not as "no base URL"), or no base URL at all.
 */
export async function apiBaseUrl(settings: Settings, profileNames: () => Promise<string[]>): Promise<URL> {
  if (settings.profileFound === false && settings.profileSource !== 'default') {
    const known = await profileNames();
    const via = settings.profileSource === 'option' ? '--profile' : 'ENERGY_PROFILE';
    throw new UsageError(
      `unknown profile "${settings.profile}" (from ${via}): ${known.length === 0 ? 'the config file has no profiles' : `known profiles: ${known.join(', ')}`}`,
      {
        hint: `create it with \`energy --profile ${settings.profile} config set base-url https://…\`, or see \`energy config profiles\``,
      },
    );
  }
  const baseUrlText = settings.values['base-url'].value;
  if (baseUrlText === undefined) {
    const named = settings.profile !== 'default';
    throw new UsageError(`no API base URL${named ? ` in profile ${settings.profile}` : ''}`, {
      hint: `run \`energy${named ? ` --profile ${settings.profile}` : ''} config set base-url https://…\`, or give --base-url or ENERGY_BASE_URL; to try the tool locally, run \`energy sandbox\` in a second terminal and use \`energy --profile sandbox …\``,
    });
  }
  return parseBaseUrl(baseUrlText);
}

/** Said with a 401: a key and secret from different places are the most common mismatch. */
export function credentialSourcesNote(settings: Settings): string | undefined {
  const key = settings.values['api-key'].source;
  const secret = settings.values['api-secret'].source;
  if (key === undefined || secret === undefined || key === secret) return undefined;
  return `the API key comes from the ${key} and the secret from the ${secret} (profile ${settings.profile}): do they belong together?`;
}

/** The credential values in `settings`, to scrub from anything the run prints. */
export function credentialValues(settings: Settings): (string | undefined)[] {
  return (['api-key', 'api-secret', 'tron-api-key'] as const).map((name) => settings.values[name].value);
}
