/**
 * What the transport puts on the wire, compared byte for byte with the openssl-made vectors in
 * test/fixtures/signing-vectors.json (test/fixtures/make-signing-vectors.sh): path, query, body and the
 * Authorization header. Nothing here computes a signature, so a broken signer cannot agree with itself.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import { Transport } from '../../../src/client/transport.js';
import { jsonReply, startScriptedServer, type ScriptedServer } from '../../helpers/http-server.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import {
  scriptCreatedOrder,
  signingFixture as fixture,
  vectorNamed as vector,
  type SigningVector as Vector,
} from '../../helpers/signing-vectors.js';

let server: ScriptedServer;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  server.seen.length = 0;
});

function options(v: Vector) {
  return {
    baseUrl: server.url,
    credentials: { apiKey: fixture.apiKey, apiSecret: fixture.apiSecret },
    nowMs: () => v.timestamp * 1000,
  };
}
function client(v: Vector): EnergyClient {
  const made = new EnergyClient(options(v));
  closers.push(() => made.close());
  return made;
}
function transport(v: Vector): Transport {
  const made = new Transport(options(v));
  closers.push(() => made.close());
  return made;
}

function expectOnWire(v: Vector): void {
  expect(server.seen).toHaveLength(1);
  const [seen] = server.seen;
  expect(seen!.method).toBe(v.method);
  expect(seen!.url).toBe(v.path + v.query);
  expect(seen!.body.toString('utf8')).toBe(v.body ?? '');
  expect(seen!.headers['x-request-timestamp']).toBe(String(v.timestamp));
  expect(seen!.headers.authorization).toBe(v.authorization);
}

describe('requests on the wire match the openssl vectors', () => {
  it('GET without a query', async () => {
    const v = vector('GET without query');
    server.script(jsonReply(200, { available_trx: '1.000000', held_trx: '0.000000', status: 'active' }));
    await client(v).balance();
    expectOnWire(v);
  });

  it('GET with percent-encoded query values', async () => {
    const v = vector('GET whose query values');
    server.script(jsonReply(200, { items: [], next_cursor: null }));
    await client(v).listOrders({ limit: 50, cursor: 'b2s+c3VyZQ== x/y' });
    expectOnWire(v);
  });

  it('POST of an order body', async () => {
    const v = vector('POST order body');
    const body = scriptCreatedOrder(server, v.body!);
    await client(v).createOrder(body);
    expectOnWire(v);
  });

  it('POST with a query', async () => {
    const v = vector('POST with a query');
    server.script(jsonReply(200, {}));
    await transport(v).send({
      method: 'POST',
      path: v.path,
      query: { dry_run: 'true', note: 'a b+c' },
      body: JSON.parse(v.body!) as object,
      auth: true,
      check: (value) => value,
    });
    expectOnWire(v);
  });

  it('POST with an empty body', async () => {
    const v = vector('POST with an empty body');
    server.script(jsonReply(200, {}));
    await transport(v).send({ method: 'POST', path: v.path, auth: true, check: (value) => value });
    expectOnWire(v);
  });

  it('a path with percent-encoded characters', async () => {
    const v = vector('path with percent-encoded');
    server.script(jsonReply(200, sampleOrder()));
    await client(v).getOrder('abc/def x%');
    expectOnWire(v);
  });
});
