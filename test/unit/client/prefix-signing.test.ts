/**
 * A base URL with a path prefix (https://api.example.com/api/energy): the request goes to the prefixed path,
 * and the signature covers the API path from /v1 on, as the spec writes it, which is what the service sees
 * behind a proxy that strips the prefix. Checked against the openssl-made vector, not against our signer.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import { jsonReply, startScriptedServer, type ScriptedServer } from '../../helpers/http-server.js';
import { sampleOrder } from '../../helpers/sample-order.js';

interface Vector {
  name: string;
  timestamp: number;
  path: string;
  body: string;
  authorization: string;
  sentPath: string;
}
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/signing-vectors.json', import.meta.url), 'utf8')) as {
  apiKey: string;
  apiSecret: string;
  vectors: (Vector | { sentPath?: undefined })[];
};
const vector = fixture.vectors.find((v): v is Vector => v.sentPath !== undefined)!;

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());

describe('signing under a base URL with a path prefix', () => {
  it('sends to the prefixed path and signs the path from /v1 on, as the openssl vector says', async () => {
    expect(vector.sentPath).toBe(`/api/energy${vector.path}`);
    const body = JSON.parse(vector.body) as {
      client_request_id: string;
      address: string;
      energy: number;
      duration_hours: number;
      expected_total_trx: string;
    };
    server.script(
      jsonReply(
        201,
        sampleOrder({
          client_request_id: body.client_request_id,
          address: body.address,
          total_trx: body.expected_total_trx,
        }),
      ),
    );
    const client = new EnergyClient({
      baseUrl: new URL('/api/energy', server.url),
      credentials: { apiKey: fixture.apiKey, apiSecret: fixture.apiSecret },
      nowMs: () => vector.timestamp * 1000,
    });
    try {
      await client.createOrder(body);
    } finally {
      await client.close();
    }
    expect(server.seen).toHaveLength(1);
    const [seen] = server.seen;
    expect(seen!.url).toBe(vector.sentPath);
    expect(seen!.body.toString('utf8')).toBe(vector.body);
    expect(seen!.headers.authorization).toBe(vector.authorization);
  });
});
