/** Which command lines the entry runs from the light bundle (balance, time) and which from the whole program. */
import { describe, expect, it } from 'vitest';
import { lightCommand } from '../../../src/app/light-run.js';

describe('lightCommand', () => {
  it.each([
    [['balance'], 'balance'],
    [['time'], 'time'],
    [['balance', '--json'], 'balance'],
    [['--json', 'time'], 'time'],
    [['--profile', 'staging', 'balance'], 'balance'],
    [['--profile=staging', '--verbose', 'balance', '--help'], 'balance'],
    [['--base-url', 'http://127.0.0.1:8080', '--timeout', '5s', '--retries', '0', 'time'], 'time'],
    [['--tron-node', 'x', 'balance'], 'balance'],
    [['--state-url', 'postgresql://energy@/energy?host=/run/postgresql', 'balance'], 'balance'],
  ])('%j runs light: %s', (args, command) => {
    expect(lightCommand(args)).toBe(command);
  });

  it.each([
    [[]],
    [['quote', 'T', '--energy', '1', '--hours', '1']],
    [['--profile', 'balance', 'config', 'path']],
    [['--profile', 'time']],
    [['help', 'balance']],
    [['--', 'balance']],
    [['--output', 'json', 'balance']],
    [['--json=1', 'balance']],
    [['-V']],
    [['--unknown', 'balance']],
    [['order', 'list', 'balance']],
    [['--state-url', 'balance', 'order', 'pending']],
  ])('%j runs the whole program', (args) => {
    expect(lightCommand(args)).toBeUndefined();
  });
});
