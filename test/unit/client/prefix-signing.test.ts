/**
 * A base URL with a path prefix (https://api.example.com/api/energy): the request goes to the prefixed path,
 * and the signature covers the API path from /v1 on, as the spec writes it, which is what the service sees
 * behind a proxy that strips the prefix. Checked against the openssl-made vector, not against our signer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import { startScriptedServer, type ScriptedServer } from '../../helpers/http-server.js';
import { prefixedVector, scriptCreatedOrder, signingFixture as fixture } from '../../helpers/signing-vectors.js';

const vector = prefixedVector();

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());

describe('signing under a base URL with a path prefix', () => {
  it('sends to the prefixed path and signs the path from /v1 on, as the openssl vector says', async () => {
    expect(vector.sentPath).toBe(`/api/energy${vector.path}`);
    const body = scriptCreatedOrder(server, vector.body);
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
