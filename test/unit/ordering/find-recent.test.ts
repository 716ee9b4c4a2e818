/**
 * Reading the newest orders back to a moment, against a real server on 127.0.0.1 that caps `limit` as a
 * real one may (the spec gives no bound): every page of the window is read at the size it accepts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import { scanRecentOrders } from '../../../src/ordering/find-recent.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import {
  jsonReply,
  problemReply,
  startScriptedServer,
  type Handler,
  type ScriptedServer,
} from '../../helpers/http-server.js';

let server: ScriptedServer;
let client: EnergyClient;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());
afterEach(async () => {
  await client?.close();
  server.seen.length = 0;
});

/** `total` orders, one a minute back from 2026-11-23T10:00Z (Unix seconds), in pages up to `max` (else 400). */
function cappedServer(total: number, max: number, defaultSize = 20): Handler {
  const newest = Date.UTC(2026, 10, 23, 10) / 1000;
  return (request, response) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const limit = Number(query.get('limit') ?? defaultSize);
    if (query.has('limit') && limit > max) return problemReply(400, 'INVALID_LIMIT')(request, response);
    const offset = Number((query.get('cursor') ?? 'c0').slice(1));
    const items = Array.from({ length: Math.min(limit, total - offset) }, (_, i) =>
      sampleOrder({ client_request_id: `o-${offset + i}`, created_at: newest - 60 * (offset + i) }),
    );
    const next = offset + items.length < total ? `c${offset + items.length}` : null;
    return jsonReply(200, { items, next_cursor: next })(request, response);
  };
}

function makeClient(): EnergyClient {
  client = new EnergyClient({
    baseUrl: server.url,
    credentials: { apiKey: 'k_unit', apiSecret: 's-unit-0123456789' },
    retryPolicy: { retries: 0 },
  });
  return client;
}

const limits = () => server.seen.map((r) => new URL(r.url, 'http://x').searchParams.get('limit'));
const minutesBack = (n: number) => Date.UTC(2026, 10, 23, 10) - n * 60_000;

describe('scanRecentOrders', () => {
  it('a server capped at 50 is read in pages of 50 through the whole window, and says so', async () => {
    server.script(cappedServer(200, 50));
    const seen: string[] = [];
    const sizes: (number | undefined)[] = [];
    const scan = await scanRecentOrders(
      makeClient(),
      minutesBack(120),
      (order) => void seen.push(order.client_request_id),
      {
        onPageSize: (size) => sizes.push(size),
      },
    );
    expect(limits()).toEqual(['100', '50', '50', '50']);
    expect(sizes).toEqual([50]);
    expect(seen).toHaveLength(150);
    expect(scan.complete).toBe(true);
  });

  it('a server that takes no limit at all is read in its default pages, following the cursor', async () => {
    server.script(cappedServer(45, 0));
    const seen: string[] = [];
    const scan = await scanRecentOrders(
      makeClient(),
      minutesBack(1000),
      (order) => void seen.push(order.client_request_id),
    );
    expect(limits()).toEqual(['100', '50', null, null, null]);
    expect(seen).toHaveLength(45);
    expect(scan.complete).toBe(true);
  });

  it('stops at 1,000 orders, saying it did not reach the window and how far it read', async () => {
    server.script(cappedServer(3000, 100));
    const scan = await scanRecentOrders(makeClient(), minutesBack(5000), () => undefined);
    expect(limits()).toHaveLength(10);
    expect(scan).toEqual({ complete: false, oldestReadMs: minutesBack(999) });
  });
});
