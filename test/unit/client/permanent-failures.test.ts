/**
 * Failures that another attempt cannot fix end at once: a host that does not exist (no DNS traffic here: the
 * resolver is the test's) and a plain-HTTP server addressed as https://. Counted where they happen.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import { ExitCode, NetworkError } from '../../../src/domain/errors.js';

const credentials = { apiKey: 'key_unit', apiSecret: 'secret-unit-0123456789' };
const fastRetries = { retries: 3, baseDelayMs: 1, maxDelayMs: 10 };

let plain: Server;
let connections = 0;
beforeAll(async () => {
  // Answers whatever arrives with a plain HTTP response, as an http:// server does to a TLS hello.
  plain = createServer((socket) => {
    connections += 1;
    socket.once('data', () => socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'));
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => new Promise<void>((resolve) => plain.close(() => resolve())));

describe('failures that are not retried', () => {
  it('does not retry "host not found"', async () => {
    let lookups = 0;
    const lookup = ((hostname: string, _options: unknown, callback: (error: NodeJS.ErrnoException | null) => void) => {
      lookups += 1;
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    }) as unknown as LookupFunction;
    const client = new EnergyClient({
      baseUrl: new URL('https://api.nosuch.test'),
      credentials,
      retryPolicy: fastRetries,
      lookup,
    });
    const error = await client.balance().catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(
      'GET /v1/balance to https://api.nosuch.test: host not found (1 attempt)',
    );
    expect(lookups).toBe(1);
  });

  it('says in one line that an https:// URL reached a server that does not speak TLS, once', async () => {
    const { port } = plain.address() as AddressInfo;
    const client = new EnergyClient({
      baseUrl: new URL(`https://127.0.0.1:${port}`),
      credentials,
      retryPolicy: fastRetries,
    });
    const before = connections;
    const error = await client.balance().catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).exitCode).toBe(ExitCode.service);
    expect((error as NetworkError).message).toBe(
      `GET /v1/balance to https://127.0.0.1:${port}: the server did not answer TLS; is it http://? (1 attempt)`,
    );
    expect(connections - before).toBe(1);
  });
});
