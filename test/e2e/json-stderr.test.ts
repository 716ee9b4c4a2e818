/**
 * With --json every stderr line is one JSON object: notes as {"note":{…}}, --verbose lines as
 * {"verbose":{…}}, the error last as {"error":{…}}. Each run below is in a state that makes notes.
 */
import { describe, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import type { CliResult } from '../helpers/cli.js';
import { worldForSuite } from '../helpers/suite-world.js';

const ORDERS = '/v1/energy/orders';
const world = worldForSuite({ seedOrders: 5 });

type Line = { note?: { message: string }; verbose?: { message: string }; error?: { exit_code: number } };

/** Every stderr line parsed as one JSON object with one key; an error only on the last line. */
function stderrLines(result: CliResult): Line[] {
  const lines = result.stderr.split('\n');
  expect(lines.pop()).toBe('');
  const parsed = lines.map((line) => {
    const value = JSON.parse(line) as Line;
    expect(Object.keys(value)).toHaveLength(1);
    expect(['note', 'verbose', 'error']).toContain(Object.keys(value)[0]);
    return value;
  });
  parsed.slice(0, -1).forEach((line) => expect(line.error).toBeUndefined());
  if (result.code !== 0) expect(parsed.at(-1)?.error?.exit_code).toBe(result.code);
  return parsed;
}

const messages = (lines: Line[], kind: 'note' | 'verbose') => lines.flatMap((l) => l[kind]?.message ?? []);

describe('--json: machine-readable stderr', () => {
  it('writes notes, verbose lines, retries and the error as JSON objects, one a line', async () => {
    const address = freshAddress(7001);
    const rental = ['order', 'create', address, '--energy', '65000', '--hours', '1', '--yes', '--json'];
    // An order whose answer is lost: a pending journal record, which later order commands mention.
    world.sandbox.inject({ kind: 'drop-after-commit', match: { method: 'POST', path: ORDERS } });
    const lost = await world.run([...rental, '--client-request-id', 'lost-1', '--retries', '0']);
    expect(lost.code).toBe(7);
    stderrLines(lost);

    const list = await world.run(['order', 'list', '--limit', '1', '--json']);
    expect(list.code).toBe(0);
    const listNotes = messages(stderrLines(list), 'note');
    expect(listNotes.some((m) => m.startsWith('1 order request sent from this machine never got an answer'))).toBe(
      true,
    );

    // The re-run resends the journaled request and the server answers 200: two notes.
    const again = await world.run([...rental, '--client-request-id', 'lost-1']);
    expect(again.code).toBe(0);
    const againNotes = messages(stderrLines(again), 'note');
    expect(againNotes.some((m) => m.includes('resending that same request'))).toBe(true);
    expect(againNotes.some((m) => m.startsWith('the server answered 200'))).toBe(true);

    // --verbose request lines and a retry announcement, then an error.
    world.sandbox.inject({ kind: 'status', status: 503, match: { path: '/v1/balance' }, times: 1 });
    const verbose = await world.run(['--verbose', 'balance', '--json']);
    expect(verbose.code).toBe(0);
    const verboseLines = stderrLines(verbose);
    expect(messages(verboseLines, 'verbose').some((m) => m.startsWith('> GET '))).toBe(true);
    expect(messages(verboseLines, 'note').some((m) => /retry/i.test(m))).toBe(true);
    expect(verbose.stderr).not.toContain(world.env.ENERGY_API_SECRET);

    const missing = await world.run(['--verbose', 'order', 'get', '00000000-0000-4000-8000-000000000000', '--json']);
    expect(missing.code).toBe(4);
    expect(stderrLines(missing).length).toBeGreaterThan(1);

    const recover = await world.run(['order', 'recover', '--yes', '--json']);
    expect(recover.code).toBe(0);
    stderrLines(recover);
    const pending = await world.run(['order', 'pending', '--json']);
    expect(pending.code).toBe(0);
    stderrLines(pending);
  });

  it('keeps a batch summary and ensure notes as JSON', async () => {
    const line = `address,energy,hours\n${freshAddress(7002)},65000,1\n`;
    const batch = await world.run(['order', 'batch', '-', '--format', 'csv', '--yes', '--json'], { input: line });
    expect(batch.code, batch.stderr).toBe(0);
    expect(messages(stderrLines(batch), 'note').length).toBeGreaterThan(0);
    const ensure = await world.run(
      ['ensure', freshAddress(7003), '--energy', '65000', '--hours', '1', '--dry-run', '--json', '--verbose'],
      { env: { ENERGY_TRON_NODE: world.sandbox.url } },
    );
    expect(ensure.code).toBe(0);
    expect(messages(stderrLines(ensure), 'verbose').length).toBeGreaterThan(0);
  });
});
