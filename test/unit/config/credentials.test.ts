/** config/credentials: the one place that checks the account a command is about to use, and says what to fix. */
import { describe, expect, it } from 'vitest';
import {
  apiBaseUrl,
  assertUsableCredentials,
  credentialSourcesNote,
  requireApiKey,
} from '../../../src/config/credentials.js';
import type { SettingName } from '../../../src/config/names.js';
import type { ResolvedSetting, Settings, SettingSource } from '../../../src/config/settings.js';
import { AuthError, ExitCode, MissingCredentialsError, UsageError } from '../../../src/domain/errors.js';

function settings(
  values: Partial<Record<SettingName, readonly [string, SettingSource]>>,
  profile: Partial<Settings> = {},
): Settings {
  const all = {} as Record<SettingName, ResolvedSetting>;
  for (const name of ['base-url', 'api-key', 'api-secret', 'tron-node', 'tron-api-key'] as const) {
    const [value, source] = values[name] ?? [undefined, undefined];
    all[name] = { value, source };
  }
  return { profile: 'default', profileSource: 'default', values: all, ...profile };
}

describe('assertUsableCredentials', () => {
  it.each([
    ['api-key', 'environment', /ENERGY_API_KEY variable/, /set ENERGY_API_KEY again/],
    ['api-secret', 'profile', /profile prod/, /energy --profile prod config set api-secret/],
    ['tron-api-key', 'environment', /ENERGY_TRON_API_KEY variable/, /set ENERGY_TRON_API_KEY again/],
  ] as const)('%s from the %s: says where it came from and how to set it again', (name, source, where, hint) => {
    const s = settings({ [name]: ['line\nbreak', source] }, { profile: 'prod' });
    const error = (() => {
      try {
        assertUsableCredentials(s, [name]);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toMatch(where);
    expect((error as AuthError).hint).toMatch(hint);
    // Never a 401: nothing was sent.
    expect((error as AuthError).status).toBeUndefined();
  });

  it('passes printable ASCII, and a secret with spaces', () => {
    const s = settings({ 'api-key': ['ak_live_1', 'environment'], 'api-secret': ['a secret with spaces', 'profile'] });
    expect(() => assertUsableCredentials(s, ['api-key', 'api-secret'])).not.toThrow();
  });
});

describe('requireApiKey', () => {
  it.each([
    ['no key', { 'api-secret': ['s', 'profile'] }],
    ['no secret', { 'api-key': ['k', 'profile'] }],
  ] as const)('%s: the one missing-credentials error', (_name, values) => {
    expect(() => requireApiKey(settings(values))).toThrow(MissingCredentialsError);
  });
});

describe('apiBaseUrl', () => {
  const none = async () => [] as string[];
  it('a profile named by --profile that the store lacks: listed, not "no base URL"', async () => {
    const s = settings({}, { profile: 'prdo', profileSource: 'option', profileFound: false });
    await expect(apiBaseUrl(s, async () => ['prod', 'sandbox'])).rejects.toThrow(
      'unknown profile "prdo" (from --profile): known profiles: prod, sandbox',
    );
  });

  it.each([
    ['default', /^no API base URL$/, /energy config set base-url/],
    ['prod', /^no API base URL in profile prod$/, /energy --profile prod config set base-url/],
  ])('no base URL in profile %s', async (profile, message, hint) => {
    const error = await apiBaseUrl(settings({}, { profile }), none).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
    expect((error as UsageError).hint).toMatch(hint);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
  });

  it('a base URL is parsed', async () => {
    const url = await apiBaseUrl(settings({ 'base-url': ['http://127.0.0.1:8787', 'environment'] }), none);
    expect(url.origin).toBe('http://127.0.0.1:8787');
  });
});

describe('credentialSourcesNote', () => {
  it.each([
    [
      'environment',
      'profile',
      'the API key comes from the environment and the secret from the profile (profile default)',
    ],
    ['profile', 'profile', undefined],
    ['environment', 'environment', undefined],
  ] as const)('key from the %s, secret from the %s', (keySource, secretSource, note) => {
    const s = settings({ 'api-key': ['k', keySource], 'api-secret': ['s', secretSource] });
    const said = credentialSourcesNote(s);
    if (note === undefined) expect(said).toBeUndefined();
    else expect(said).toContain(note);
  });
});
