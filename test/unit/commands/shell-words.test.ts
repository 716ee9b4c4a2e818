/** Hints that are commands carry the run's --profile, --base-url and --json; prose and profile-free commands do not. */
import { describe, expect, it } from 'vitest';
import { withContext } from '../../../src/commands/shell-words.js';

const prod = { profile: 'prod' };

describe('withContext', () => {
  it('adds --profile to a command the hint suggests', () => {
    expect(withContext('run `energy order recover`', prod)).toBe('run `energy --profile prod order recover`');
    expect(withContext('see `energy quote --help`', { profile: 'p', json: true })).toBe(
      'see `energy --profile p --json quote --help`',
    );
  });

  it('leaves prose that names the tool alone', () => {
    for (const prose of [
      'run it yourself to see why (energy never shows what it printed)',
      'another energy command is changing the config file',
      'energy adds /v1/… itself: give the origin',
      'energy signs with the server time meanwhile',
    ])
      expect(withContext(prose, { profile: 'prod', baseUrl: 'https://api.example.com' })).toBe(prose);
  });

  it('adds no --profile to commands that take none, nor to sandbox', () => {
    for (const hint of [
      'remove it with `energy config delete-profile staging`',
      'see `energy config profiles`',
      'start it with `energy sandbox` in another terminal',
    ])
      expect(withContext(hint, { profile: 'staging' })).toBe(hint);
  });

  it('does not repeat what the hint wrote already', () => {
    expect(withContext('`energy --profile prod balance`', prod)).toBe('`energy --profile prod balance`');
  });
});
