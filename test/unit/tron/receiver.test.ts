/** refuseContractReceiver against a scripted node on 127.0.0.1: a contract refused, others let through. */
import { describe, expect, it } from 'vitest';
import { ExitCode, UsageError } from '../../../src/domain/errors.js';
import { refuseContractReceiver } from '../../../src/tron/receiver.js';
import type { TronNode } from '../../../src/tron/tron-node.js';
import { jsonReply } from '../../helpers/http-server.js';
import { scriptedTronForSuite } from '../../helpers/scripted-tron.js';

const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const tron = scriptedTronForSuite();

const check = (address: string, node: TronNode | undefined, notes: string[] = []) =>
  refuseContractReceiver(
    address,
    () => Promise.resolve(node),
    (line) => notes.push(line),
  );

describe('refuseContractReceiver', () => {
  it('refuses the USDT contract without asking the node', async () => {
    tron.server.seen.length = 0;
    const error = await check(USDT, tron.node).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    expect(tron.server.seen).toHaveLength(0);
  });

  it('refuses an account the node types as Contract, and lets a normal one or {} through', async () => {
    tron.server.script(jsonReply(200, { type: 'Contract', address: ADDRESS }));
    await expect(check(ADDRESS, tron.node)).rejects.toThrow(/is a smart contract: TRON does not delegate energy/);
    tron.server.script(jsonReply(200, { address: ADDRESS, balance: 5 }));
    await expect(check(ADDRESS, tron.node)).resolves.toBeUndefined();
    tron.server.script(jsonReply(200, {}));
    await expect(check(ADDRESS, tron.node)).resolves.toBeUndefined();
  });

  it('without a configured node asks nothing; a node that fails costs a note, not the command', async () => {
    await expect(check(ADDRESS, undefined)).resolves.toBeUndefined();
    tron.server.script(jsonReply(503, { Error: 'busy' }));
    const notes: string[] = [];
    await expect(check(ADDRESS, tron.node, notes)).resolves.toBeUndefined();
    expect(notes[0]).toMatch(/could not check whether .* is a contract account .*HTTP 503.*; going on$/);
  });

  it.each([401, 403])('a node refusing the key (HTTP %i) costs a note, not the command', async (status) => {
    tron.server.script(jsonReply(status, { Error: 'invalid API key' }));
    const notes: string[] = [];
    await expect(check(ADDRESS, tron.node, notes)).resolves.toBeUndefined();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      new RegExp(`could not check whether ${ADDRESS} is a contract account .*HTTP ${status}.*; going on$`),
    );
  });
});
