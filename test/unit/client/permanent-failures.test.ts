/**
 * Failures that another attempt cannot fix end at once: a host that does not exist (no DNS traffic here: the
 * resolver is the test's), a plain-HTTP server addressed as https://, a certificate that is not trusted, an
 * answer over the size cap. Counted where they happen.
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type Server } from 'node:net';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import { ExitCode, NetworkError } from '../../../src/domain/errors.js';
import { makeCertificates } from '../../helpers/proxy.js';

const credentials = { apiKey: 'key_unit', apiSecret: 'secret-unit-0123456789' };
const fastRetries = { retries: 3, baseDelayMs: 1, maxDelayMs: 10 };
const ORDER_BODY = JSON.stringify({
  client_request_id: 'req-permanent',
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  energy: 65000,
  duration_hours: 1,
  expected_total_trx: '2.600000',
});

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

  it('does not retry a certificate that is not trusted, and knows that nothing was sent', async () => {
    const certificates = makeCertificates();
    let handshakes = 0;
    let requests = 0;
    const server = createHttpsServer({ key: certificates.key, cert: certificates.cert }, (_request, response) => {
      requests += 1;
      response.end();
    });
    server.on('connection', () => (handshakes += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // The test CA is not trusted here: the handshake fails on the certificate.
    const client = new EnergyClient({
      baseUrl: new URL(`https://127.0.0.1:${port}`),
      credentials,
      retryPolicy: fastRetries,
    });
    try {
      const error = await client.sendOrderBody(ORDER_BODY).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toMatch(
        new RegExp(
          `^POST /v1/energy/orders to https://127\\.0\\.0\\.1:${port}: the server's TLS certificate was refused: .*\\(UNABLE_TO_VERIFY_LEAF_SIGNATURE\\) \\(1 attempt\\)$`,
        ),
      );
      // A refused handshake sends no HTTP byte: an order is known not to be placed.
      expect((error as NetworkError).outcomeUncertain).toBe(false);
      expect([handshakes, requests]).toEqual([1, 0]);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      certificates.remove();
    }
  });

  it('says that an answer over 64 MiB is too large, reads it once, and keeps an order uncertain', async () => {
    let requests = 0;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const server = createHttpServer((_request, response) => {
      requests += 1;
      response.writeHead(201, { 'content-type': 'application/json' });
      let sent = 0;
      // Streamed as the client reads, until it hangs up or 65 MiB are out.
      const more = () => {
        while (sent < 65 && !response.destroyed) {
          sent += 1;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      more();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = new EnergyClient({
      baseUrl: new URL(`http://127.0.0.1:${port}`),
      credentials,
      retryPolicy: fastRetries,
    });
    try {
      const error = await client.sendOrderBody(ORDER_BODY).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(
        `POST /v1/energy/orders to http://127.0.0.1:${port}: the response is too large: over 64 MiB (1 attempt)`,
      );
      // The request arrived: whether it placed an order is not known.
      expect((error as NetworkError).outcomeUncertain).toBe(true);
      expect(requests).toBe(1);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
