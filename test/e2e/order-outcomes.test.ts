/**
 * What the journal records about an order request, checked on disk and at the server: an answer that leaves
 * the outcome unknown (5xx after the retries, an unreadable 2xx) keeps the record pending, a resend keeps the
 * first outcome, and a record is resent byte for byte whatever the order of its keys.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { runCli } from '../helpers/cli.js';
import { freshAddress } from '../helpers/e2e.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/http-server.js';
import { sampleOrder } from '../helpers/sample-order.js';
import { json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { pendingIdsOf } from '../helpers/pending.js';

const ORDERS = '/v1/energy/orders';

const world = worldForSuite({ deliverAfterMs: 60_000 });
afterEach(() => world.sandbox.clearFaults());

let addressNumber = 16_600;
const nextAddress = () => freshAddress((addressNumber += 1));
const rental = (address: string) => ['order', 'create', address, '--energy', '65000', '--hours', '1'];
const ordersTo = (address: string) => world.sandbox.orders().filter((o) => o.address === address);

interface RecordOnDisk {
  client_request_id: string;
  body: string;
  last_error: string | null;
  outcome: { kind: string; at: string; order_id?: string; status?: number } | null;
}

/** The journal files of one state ('pending' or 'settled') for this client_request_id, parsed. */
function recordsOf(
  stateDir: string,
  state: 'pending' | 'settled',
  id: string,
): { path: string; record: RecordOnDisk }[] {
  const folder = join(stateDir, 'journal', state);
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names
    .map((name) => ({ path: join(folder, name), record: JSON.parse(readFileSync(join(folder, name), 'utf8')) }))
    .filter(({ record }) => (record as RecordOnDisk).client_request_id === id) as {
    path: string;
    record: RecordOnDisk;
  }[];
}

async function pendingIds(): Promise<string[]> {
  const pending = await world.run(['order', 'pending', '--json']);
  expect(pending.code, pending.stderr).toBe(0);
  return pendingIdsOf(pending);
}

describe('an answer that leaves the outcome unknown keeps the record pending', () => {
  it('an order POST whose retries all end in 503: exit 7, pending (not "refused 503"), recover named', async () => {
    const address = nextAddress();
    const id = `five-oh-three-${address}`;
    world.sandbox.inject({ kind: 'status', status: 503, times: 2, match: { method: 'POST', path: ORDERS } });
    const before = world.sandbox.requestCount(ORDERS);
    const result = await world.run([...rental(address), '--yes', '--retries', '1', '--client-request-id', id]);
    expect(result.code, result.stderr).toBe(7);
    expect(world.sandbox.requestCount(ORDERS) - before).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`client_request_id ${id} may or may not have been placed`));
    expect(result.stderr).toContain(`energy order recover ${id}`);

    expect(recordsOf(world.stateDir, 'settled', id)).toEqual([]);
    const [pending] = recordsOf(world.stateDir, 'pending', id);
    expect(pending?.record).toMatchObject({ outcome: null, last_error: expect.stringMatching(/503/) });
    expect(await pendingIds()).toContain(id);

    // The record is what `order recover` settles: once, and with exactly one order.
    const recovered = await world.run(['order', 'recover', id, '--yes', '--json']);
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(json(recovered)).toMatchObject({ items: [{ client_request_id: id, outcome: 'created' }] });
    expect(ordersTo(address)).toHaveLength(1);
  });

  it.each([
    ['a body that is not JSON', 201, 'application/json', '{"id":"'],
    ['an HTML page', 200, 'text/html', '<html><body>OK</body></html>'],
    ['JSON that is not an order', 201, 'application/json', '{"ok":true}'],
  ])('a 2xx order answer with %s: exit 7, pending (not "not-sent")', async (_label, status, contentType, body) => {
    const address = nextAddress();
    const id = `unreadable-${status}-${address}`;
    world.sandbox.inject({ kind: 'raw', status, contentType, body, match: { method: 'POST', path: ORDERS } });
    const before = world.sandbox.requestCount(ORDERS);
    const result = await world.run([...rental(address), '--yes', '--client-request-id', id]);
    expect(result.code, result.stderr).toBe(7);
    // A 2xx is never retried blindly: the server said yes, only the answer is unreadable.
    expect(world.sandbox.requestCount(ORDERS) - before).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`client_request_id ${id} may or may not have been placed`));
    expect(recordsOf(world.stateDir, 'settled', id)).toEqual([]);
    expect(recordsOf(world.stateDir, 'pending', id)).toHaveLength(1);
    expect(await pendingIds()).toContain(id);
  });
});

describe('a resend keeps the first outcome', () => {
  it('a fixed id re-run gets 200 from the server, and the journal still says "created", from the first run', async () => {
    const address = nextAddress();
    const id = `first-outcome-${address}`;
    const first = await world.run([...rental(address), '--yes', '--client-request-id', id, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const [settled] = recordsOf(world.stateDir, 'settled', id);
    expect(settled?.record.outcome).toMatchObject({ kind: 'created', order_id: json<Order>(first).id });
    const firstOutcome = settled!.record.outcome;

    const posts = world.sandbox.requestCount(ORDERS);
    const again = await world.run([...rental(address), '--yes', '--client-request-id', id, '--json']);
    expect(again.code, again.stderr).toBe(0);
    // It was resent, and the server answered with the order it already had.
    expect(world.sandbox.requestCount(ORDERS) - posts).toBe(1);
    expect(again.stderr).toMatch(/answered 200/);
    expect(json<Order>(again).id).toBe(json<Order>(first).id);
    expect(ordersTo(address)).toHaveLength(1);

    const after = recordsOf(world.stateDir, 'settled', id);
    expect(after).toHaveLength(1);
    expect(after[0]!.record.outcome).toEqual(firstOutcome);
  });
});

describe('a journaled body is sent byte for byte', () => {
  let server: ScriptedServer;
  let phase: 'lose-answer' | 'answer' = 'lose-answer';
  beforeAll(async () => {
    server = await startScriptedServer();
    server.script((request, response) => {
      if (request.method === 'GET' && request.url.startsWith(ORDERS)) {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[],"next_cursor":null}');
      } else if (request.method === 'POST' && request.url === ORDERS && phase === 'lose-answer') {
        response.socket?.destroy();
      } else if (request.method === 'POST' && request.url === ORDERS) {
        const asked = JSON.parse(request.body.toString('utf8')) as Record<string, string | number>;
        const order = sampleOrder({
          id: '4f2d8a6b-1c3e-4b5a-9d7f-0e1a2b3c4d5e',
          client_request_id: String(asked.client_request_id),
          address: String(asked.address),
          energy: Number(asked.energy),
          duration_hours: Number(asked.duration_hours),
          total_trx: String(asked.expected_total_trx),
        });
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(order));
      } else {
        response
          .writeHead(404, { 'content-type': 'application/problem+json' })
          .end(
            JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'no', code: 'NOT_FOUND' }),
          );
      }
    });
  });
  afterAll(async () => server.close());

  it('a record whose body has its keys in another order is resent with exactly those bytes', async () => {
    const env = { ...world.env, ENERGY_BASE_URL: server.url.origin };
    const address = nextAddress();
    const id = `key-order-${address}`;
    const lost = await runCli(
      [...rental(address), '--expected-total', '3.700000', '--retries', '0', '--client-request-id', id],
      { env },
    );
    expect(lost.code, lost.stderr).toBe(7);
    const [pending] = recordsOf(world.stateDir, 'pending', id);
    expect(pending).toBeDefined();
    const firstSent = server.seen.filter((seen) => seen.method === 'POST');
    expect(firstSent.map((seen) => seen.body.toString('utf8'))).toEqual([pending!.record.body]);

    // The same request as another writer would put it: keys in another order, and Python's json.dumps spacing.
    const parsed = JSON.parse(pending!.record.body) as Record<string, unknown>;
    const reordered = `{${Object.keys(parsed)
      .reverse()
      .map((key) => `${JSON.stringify(key)}: ${JSON.stringify(parsed[key])}`)
      .join(', ')}}`;
    expect(reordered).not.toBe(pending!.record.body);
    const onDisk = JSON.parse(readFileSync(pending!.path, 'utf8')) as Record<string, unknown>;
    writeFileSync(pending!.path, `${JSON.stringify({ ...onDisk, body: reordered }, null, 2)}\n`);

    phase = 'answer';
    const recovered = await runCli(['order', 'recover', id, '--yes', '--json'], { env });
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(json(recovered)).toMatchObject({ items: [{ client_request_id: id, outcome: 'created' }] });
    const posts = server.seen.filter((seen) => seen.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[1]!.body.toString('utf8')).toBe(reordered);
  });
});
