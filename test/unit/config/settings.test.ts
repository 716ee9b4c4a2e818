import { describe, expect, it, vi } from 'vitest';
import { resolveSettings } from '../../../src/config/settings.js';

const PROFILE = { 'base-url': 'https://profile.example', 'api-key': 'profile-key', 'api-secret': 'profile-secret' };

describe('resolveSettings precedence: option > environment > profile > default', () => {
  it.each([
    [
      'option wins',
      { baseUrl: 'https://option.example' },
      { ENERGY_BASE_URL: 'https://env.example' },
      'https://option.example',
      'option',
    ],
    ['environment beats profile', {}, { ENERGY_BASE_URL: 'https://env.example' }, 'https://env.example', 'environment'],
    ['profile when nothing else', {}, {}, 'https://profile.example', 'profile'],
    ['an empty variable does not count', {}, { ENERGY_BASE_URL: '' }, 'https://profile.example', 'profile'],
  ])('%s', async (_label, options, env, value, source) => {
    const settings = await resolveSettings({ options, env, readProfile: async () => PROFILE });
    expect(settings.values['base-url']).toEqual({ value, source });
  });

  it('takes credentials from the environment over the profile', async () => {
    const settings = await resolveSettings({
      options: {},
      env: { ENERGY_API_KEY: 'env-key', ENERGY_API_SECRET: 'env-secret' },
      readProfile: async () => PROFILE,
    });
    expect(settings.values['api-key']).toEqual({ value: 'env-key', source: 'environment' });
    expect(settings.values['api-secret']).toEqual({ value: 'env-secret', source: 'environment' });
  });

  it('ENERGY_API_SECRET before ENERGY_API_SECRET_FILE, the file before the profile', async () => {
    const both = await resolveSettings({
      options: {},
      env: { ENERGY_API_SECRET: 'env-secret', ENERGY_API_SECRET_FILE: '/run/secrets/energy' },
      readProfile: async () => PROFILE,
    });
    expect(both.values['api-secret']).toEqual({ value: 'env-secret', source: 'environment' });
    const file = await resolveSettings({
      options: {},
      env: { ENERGY_API_SECRET_FILE: '/run/secrets/energy' },
      readProfile: async () => PROFILE,
    });
    expect(file.values['api-secret']).toEqual({
      value: undefined,
      source: 'environment',
      origin: { kind: 'file', path: '/run/secrets/energy' },
    });
  });

  it('does not read the profile when options and environment settle everything', async () => {
    const readProfile = vi.fn(async () => PROFILE);
    await resolveSettings({
      options: { baseUrl: 'https://o.example' },
      env: { ENERGY_API_KEY: 'k', ENERGY_API_SECRET: 's' },
      readProfile,
    });
    expect(readProfile).not.toHaveBeenCalled();
  });

  it.each([
    [{ profile: 'cli' }, { ENERGY_PROFILE: 'env' }, 'cli', 'option'],
    [{}, { ENERGY_PROFILE: 'env' }, 'env', 'environment'],
    [{}, {}, 'default', 'default'],
  ])('picks the profile %j %j → %s', async (options, env, profile, source) => {
    const readProfile = vi.fn(async () => ({}));
    const settings = await resolveSettings({ options, env, readProfile });
    expect(settings.profile).toBe(profile);
    expect(settings.profileSource).toBe(source);
    expect(readProfile).toHaveBeenCalledWith(profile);
  });

  it.each(['a.b', '../x', '', ' ', 'x'.repeat(65), '-lead'])('refuses the profile name %j', async (profile) => {
    const attempt = resolveSettings({
      options: {},
      env: { ENERGY_PROFILE: profile || 'x y' },
      readProfile: async () => ({}),
    });
    await expect(attempt).rejects.toThrow(/invalid profile name/);
  });

  it('gives tron-node its built-in default (TronGrid mainnet) and lets option, environment and profile beat it', async () => {
    const none = await resolveSettings({ options: {}, env: {}, readProfile: async () => ({}) });
    expect(none.values['tron-node']).toEqual({ value: 'https://api.trongrid.io', source: 'default' });
    const stored = await resolveSettings({
      options: {},
      env: {},
      readProfile: async () => ({ 'tron-node': 'https://nile.trongrid.io' }),
    });
    expect(stored.values['tron-node']).toEqual({ value: 'https://nile.trongrid.io', source: 'profile' });
    const env = { ENERGY_TRON_NODE: 'https://env.example', ENERGY_TRON_API_KEY: 'tk' };
    const fromEnv = await resolveSettings({
      options: {},
      env,
      readProfile: async () => ({ 'tron-node': 'https://nile.trongrid.io' }),
    });
    expect(fromEnv.values['tron-node']).toEqual({ value: 'https://env.example', source: 'environment' });
    expect(fromEnv.values['tron-api-key']).toEqual({ value: 'tk', source: 'environment' });
    const option = await resolveSettings({
      options: { tronNode: 'https://option.example' },
      env,
      readProfile: async () => ({}),
    });
    expect(option.values['tron-node']).toEqual({ value: 'https://option.example', source: 'option' });
  });

  it('reads the profile for the TRON settings only when a command needs them', async () => {
    const readProfile = vi.fn(async () => ({ 'tron-api-key': 'profile-tron-key' }));
    const input = {
      options: { baseUrl: 'https://o.example' },
      env: { ENERGY_API_KEY: 'k', ENERGY_API_SECRET: 's' },
      readProfile,
    };
    await resolveSettings(input);
    expect(readProfile).not.toHaveBeenCalled();
    const tron = await resolveSettings({ ...input, needed: ['tron-node', 'tron-api-key'] });
    expect(readProfile).toHaveBeenCalledTimes(1);
    expect(tron.values['tron-api-key']).toEqual({ value: 'profile-tron-key', source: 'profile' });
  });
});
