/**
 * An EnergyClient (signed, no retries) against a scripted server on 127.0.0.1, for unit suites that check
 * how the API's answers are read; and a server of orders in pages, its `limit` capped as a real one's may be.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { EnergyClient } from '../../src/client/client.js';
import { jsonReply, problemReply, startScriptedServer, type Handler, type ScriptedServer } from './http-server.js';
import { sampleOrder } from './sample-order.js';

export interface ScriptedApi {
  readonly server: ScriptedServer;
  /** A new client, closed after the test; the server forgets what it saw then too. */
  client(): EnergyClient;
  /** The `limit` of each request the server saw (null when none was given). */
  limits(): (string | null)[];
}

/** Started before the suite's first test and closed after its last, where called. */
export function scriptedApiForSuite(): ScriptedApi {
  let server: ScriptedServer | undefined;
  const clients: EnergyClient[] = [];
  beforeAll(async () => {
    server = await startScriptedServer();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    server!.seen.length = 0;
  });
  afterAll(async () => server?.close());
  return {
    get server() {
      return server!;
    },
    client() {
      const client = new EnergyClient({
        baseUrl: server!.url,
        credentials: { apiKey: 'k_unit', apiSecret: 's-unit-0123456789' },
        retryPolicy: { retries: 0 },
      });
      clients.push(client);
      return client;
    },
    limits: () => server!.seen.map((r) => new URL(r.url, 'http://x').searchParams.get('limit')),
  };
}

/**
 * `total` orders newest first, from cursor "c<offset>", in pages of `limit` up to `max` (a larger `limit`
 * is a 400), `defaultSize` when none is asked for. Order n has id …n and was created `n` minutes before
 * 2026-11-23T10:00Z.
 */
export function pagingServer(total: number, max: number, defaultSize = 20): Handler {
  const newest = Date.UTC(2026, 10, 23, 10) / 1000;
  return (request, response) => {
    const query = new URL(request.url, 'http://x').searchParams;
    const limit = Number(query.get('limit') ?? defaultSize);
    if (query.has('limit') && limit > max) return problemReply(400, 'INVALID_LIMIT')(request, response);
    const offset = Number((query.get('cursor') ?? 'c0').slice(1));
    const items = Array.from({ length: Math.min(limit, total - offset) }, (_, i) =>
      sampleOrder({
        id: `00000000-0000-4000-8000-${String(offset + i).padStart(12, '0')}`,
        client_request_id: `o-${offset + i}`,
        created_at: newest - 60 * (offset + i),
      }),
    );
    const next = offset + items.length < total ? `c${offset + items.length}` : null;
    return jsonReply(200, { items, next_cursor: next })(request, response);
  };
}
