/**
 * The order journal, end to end: a run killed at the worst moment leaves a record that `order pending`
 * shows and `order recover` settles with exactly one order; a fixed-id cron job gets its one order back
 * on every run; parallel runs never corrupt the journal.
 */
import { chmodSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { pendingIdsOf } from '../helpers/pending.js';

const world = worldForSuite();
afterEach(() => world.sandbox.clearFaults());

let addressNumber = 7000;
const nextAddress = () => freshAddress((addressNumber += 1));
const rental = (address: string) => ['order', 'create', address, '--energy', '65000', '--hours', '1'];
const ordersTo = (address: string) => world.sandbox.orders().filter((o) => o.address === address);
const ORDERS = '/v1/energy/orders';
const QUOTES = '/v1/energy/quotes';

function journalFiles(state: 'pending' | 'settled'): string[] {
  try {
    return readdirSync(join(world.stateDir, 'journal', state)).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}

describe('the cron recipe: a fixed --client-request-id', () => {
  it('gets its one order back on every run, across delivery and a price change, without a new quote', async () => {
    const address = nextAddress();
    const cron = [...rental(address), '--max-total', '5', '--yes', '--client-request-id', `topup-${address}`, '--json'];
    const first = await world.run(cron);
    expect(first.code, first.stderr).toBe(0);
    const placed = json<Order>(first);

    // Delivery removes the activation fee, and the rates move: a fresh quote would now differ.
    await until('delivery', () => ordersTo(address).every((o) => o.delivery_final));
    world.sandbox.setRates({ 1: '0.000050' });
    try {
      for (const run of [2, 3]) {
        const quotes = world.sandbox.requestCount(QUOTES);
        const again = await world.run(cron);
        expect(again.code, `run ${run}: ${again.stderr}`).toBe(0);
        expect(json<Order>(again).id).toBe(placed.id);
        expect(again.stderr).toMatch(/resending that same request \(no new quote\)/);
        expect(world.sandbox.requestCount(QUOTES) - quotes).toBe(0);
      }
    } finally {
      world.sandbox.setRates({ 1: '0.000040' });
    }
    expect(ordersTo(address)).toHaveLength(1);
    expect(ordersTo(address)[0]!.total_trx).toBe(placed.total_trx);
  });

  it('refuses the same id with another address, energy or hours locally: exit 5, nothing sent', async () => {
    const address = nextAddress();
    const id = `fixed-${address}`;
    expect((await world.run([...rental(address), '--yes', '--client-request-id', id])).code).toBe(0);
    const posts = world.sandbox.requestCount(ORDERS);
    const quotes = world.sandbox.requestCount(QUOTES);
    for (const change of [
      ['order', 'create', nextAddress(), '--energy', '65000', '--hours', '1'],
      ['order', 'create', address, '--energy', '66000', '--hours', '1'],
      ['order', 'create', address, '--energy', '65000', '--hours', '3'],
    ]) {
      const result = await world.run([...change, '--yes', '--client-request-id', id]);
      expect(result.code).toBe(5);
      expect(result.stderr).toMatch(
        new RegExp(
          `client_request_id ${id} was already used from this machine for ${address}, 65,000 energy, 1 h: nothing was sent`,
        ),
      );
    }
    expect(world.sandbox.requestCount(ORDERS) - posts).toBe(0);
    expect(world.sandbox.requestCount(QUOTES) - quotes).toBe(0);
  });
});

describe('a run killed while its order is in flight', () => {
  for (const signal of ['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal} after the order is committed, before the answer: pending shows it, recover settles it with one order`, async () => {
      const address = nextAddress();
      const id = `killed-${signal}-${address}`;
      world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: ORDERS } });
      const running = world.spawn([...rental(address), '--yes', '--client-request-id', id]);
      await until('the order is committed', () => ordersTo(address).length === 1);
      running.child.kill(signal);
      const killed = await running.result;
      const expectedCode = { SIGKILL: 137, SIGTERM: 143, SIGINT: 130, SIGHUP: 129 }[signal];
      expect(killed.code).toBe(expectedCode);
      if (signal !== 'SIGKILL') {
        expect(killed.stderr).toMatch(
          new RegExp(
            `interrupted by ${signal}: the order with client_request_id ${id} may or may not have been placed`,
          ),
        );
        expect(killed.stderr).toContain(
          `settle it (this never places a second order) with: energy order recover ${id}`,
        );
      }

      const pending = await world.run(['order', 'pending', '--json']);
      expect(pending.code).toBe(0);
      expect(
        json<{ items: { client_request_id: string; address: string; settleable_here: boolean }[] }>(pending).items,
      ).toContainEqual(expect.objectContaining({ client_request_id: id, address, settleable_here: true }));
      // Another order command mentions it, once, with the command that settles it.
      const listed = await world.run(['order', 'list', '--limit', '1']);
      expect(listed.stderr.match(/never got an answer/g)).toHaveLength(1);
      expect(listed.stderr).toContain('settle with `energy order recover`');

      // Committed, so found among the newest orders: settled without a question, and no second order.
      const recovered = await world.run(['order', 'recover', id, '--json']);
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(json(recovered)).toMatchObject({
        items: [{ client_request_id: id, outcome: 'existing', order: { id: ordersTo(address)[0]!.id } }],
      });
      expect(ordersTo(address)).toHaveLength(1);
      const after = await world.run(['order', 'pending', '--json']);
      expect(pendingIdsOf(after)).not.toContain(id);
    });
  }

  it('an order the server never committed: recover says so, asks for consent, then places it once', async () => {
    const address = nextAddress();
    const id = `never-committed-${address}`;
    // The connection drops before the server reads the request: nothing is committed, the outcome unknown.
    world.sandbox.inject({ kind: 'drop', match: { method: 'POST', path: ORDERS } });
    const failed = await world.run([...rental(address), '--yes', '--retries', '0', '--client-request-id', id]);
    expect(failed.code).toBe(7);
    expect(failed.stderr).toMatch(/may or may not have been placed/);
    expect(ordersTo(address)).toHaveLength(0);

    const refused = await world.run(['order', 'recover']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /newest orders do not show 1 request; resending places each one that it never received/,
    );
    expect(refused.stderr).toMatch(
      /not resending 1 request \(up to \d+\.\d{6} TRX\) that may place orders now, without consent/,
    );
    expect(ordersTo(address)).toHaveLength(0);

    const recovered = await world.run(['order', 'recover', '--yes', '--json']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(json(recovered)).toMatchObject({ items: [{ client_request_id: id, outcome: 'created' }] });
    const again = await world.run(['order', 'recover', '--yes', '--json']);
    expect(json(again)).toEqual({ items: [] });
    expect(ordersTo(address)).toHaveLength(1);
  });
});

describe('concurrent runs', () => {
  // 16 processes, not 32: the race that matters is the 8 runs sharing one id, started together; the other 8
  // write beside them in the journal folder. 32 Node start-ups at once cost 12-18 s of a loaded 2-core
  // machine's 30 s time limit (the flake); 16 cost half that, with every run still in flight at once.
  it('16 parallel order creates (8 sharing one id) place exactly one order per id and leave a whole journal', async () => {
    const shared = nextAddress();
    const runs = Array.from({ length: 16 }, (_, i) => {
      const address = i < 8 ? shared : nextAddress();
      return { address, id: i < 8 ? `shared-${shared}` : `parallel-${address}` };
    });
    const results = await Promise.all(
      runs.map(({ address, id }) => world.run([...rental(address), '--yes', '--client-request-id', id, '--json'])),
    );
    for (const result of results) expect(result.code, result.stderr).toBe(0);
    for (const { address } of runs) expect(ordersTo(address)).toHaveLength(1);
    expect(new Set(results.map((result) => json<Order>(result).id)).size).toBe(9);
    expect(world.sandbox.orders().filter((order) => order.client_request_id === `shared-${shared}`)).toHaveLength(1);
    // Every record is whole JSON and settled; no temporary file is left behind.
    for (const name of journalFiles('settled')) {
      const path = join(world.stateDir, 'journal', 'settled', name);
      expect(() => JSON.parse(readFileSync(path, 'utf8')) as unknown).not.toThrow();
      expect(statSync(path).mode & 0o777).toBe(0o600);
    }
    expect(readdirSync(join(world.stateDir, 'journal', 'settled')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(statSync(join(world.stateDir, 'journal')).mode & 0o777).toBe(0o700);
  });

  it('never writes a credential into the journal', async () => {
    const address = nextAddress();
    expect((await world.run([...rental(address), '--yes'])).code).toBe(0);
    for (const state of ['pending', 'settled'] as const) {
      for (const name of journalFiles(state)) {
        const text = readFileSync(join(world.stateDir, 'journal', state, name), 'utf8');
        expect(text).not.toContain(world.sandbox.apiSecret);
        expect(text).not.toContain(world.sandbox.apiKey);
      }
    }
  });
});

describe('a journal folder open to others', () => {
  it('is a local problem (exit 2, the chmod to run), not authentication; no order is sent', async () => {
    const first = await world.run([...rental(nextAddress()), '--yes']);
    expect(first.code, first.stderr).toBe(0);
    const folder = join(world.stateDir, 'journal');
    const address = nextAddress();
    chmodSync(folder, 0o755);
    try {
      const result = await world.run([...rental(address), '--yes', '--json']);
      expect(result.code, result.stderr).toBe(2);
      expect(JSON.parse(result.stderr)).toMatchObject({
        error: { exit_code: 2, message: expect.stringContaining('readable by others'), hint: `chmod 700 '${folder}'` },
      });
    } finally {
      chmodSync(folder, 0o700);
    }
    expect(ordersTo(address)).toHaveLength(0);
  });
});
