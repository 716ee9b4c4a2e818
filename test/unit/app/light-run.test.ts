/** Which command lines the entry runs from the light bundle (balance, time) and which from the whole program. */
import { describe, expect, it } from 'vitest';
import { lightCommand, lightRun } from '../../../src/app/light-run.js';

describe('lightRun', () => {
  it.each([
    [['balance'], 'balance', {}],
    [['time'], 'time', {}],
    [['balance', '--json'], 'balance', { json: true }],
    [['--json', 'time'], 'time', { json: true }],
    [['--profile', 'staging', 'balance'], 'balance', { profile: 'staging' }],
    [['--profile=staging', '--verbose', 'balance'], 'balance', { profile: 'staging', verbose: true }],
    [['--profile', 'a', '--profile', 'b', 'time'], 'time', { profile: 'b' }],
    [['--base-url', 'http://127.0.0.1:8080', 'time'], 'time', { baseUrl: 'http://127.0.0.1:8080' }],
    [['--tron-node', 'x', 'balance'], 'balance', { tronNode: 'x' }],
    [
      ['--state-url=postgresql://energy@/energy?host=/run/postgresql', 'balance'],
      'balance',
      { stateUrl: 'postgresql://energy@/energy?host=/run/postgresql' },
    ],
  ])('%j runs light: %s with %j', (args, command, globals) => {
    expect(lightRun(args)).toEqual({ command, globals });
    expect(lightCommand(args)).toBe(command);
  });

  it.each([
    [[]],
    [['quote', 'T', '--energy', '1', '--hours', '1']],
    [['--profile', 'balance', 'config', 'path']],
    [['--profile', 'time']],
    [['--profile', '--json', 'balance']],
    [['--profile=', 'balance']],
    [['help', 'balance']],
    [['balance', '--help']],
    [['balance', '-h']],
    [['balance', 'balance']],
    [['balance', 'time']],
    [['balance', '--']],
    [['--', 'balance']],
    [['--output', 'json', 'balance']],
    [['--json=1', 'balance']],
    [['--timeout', '5s', 'balance']],
    [['--retries', '0', 'time']],
    [['-V']],
    [['--unknown', 'balance']],
    [['order', 'list', 'balance']],
    [['--state-url', 'balance', 'order', 'pending']],
  ])('%j runs the whole program', (args) => {
    expect(lightRun(args)).toBeUndefined();
    expect(lightCommand(args)).toBeUndefined();
  });
});
