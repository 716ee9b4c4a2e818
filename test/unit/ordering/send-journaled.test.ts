/**
 * What the journal records when an order request fails, with the real client over real sockets on
 * 127.0.0.1 and a real journal on disk: a request that may have arrived stays pending (for `order
 * recover`), one that cannot have left is settled "not sent", a definite 4xx is settled "refused".
 * The server counts the requests that reached it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import { ExitCode, NetworkError } from '../../../src/domain/errors.js';
import { OrderOutcomeUnknownError } from '../../../src/domain/cli-errors.js';
import { Journal } from '../../../src/state/folder/journal.js';
import { keyIdOf } from '../../../src/journal/record.js';
import { sendJournaled } from '../../../src/ordering/send-journaled.js';
import { closedPort } from '../../helpers/e2e.js';

const credentials = { apiKey: 'key_unit', apiSecret: 'secret-unit-0123456789' };
const ID = 'req-doubt-1';
const BODY = JSON.stringify({
  client_request_id: ID,
  address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  energy: 65000,
  duration_hours: 1,
  expected_total_trx: '3.700000',
});

let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), 'energy-send-journaled-'));
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

interface Served {
  url: string;
  /** Order requests that reached the server. */
  posts: number;
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1:0; `answer` gets each request with its number (1, 2, …) and the server. */
async function serve(
  answer: (
    request: IncomingMessage,
    response: ServerResponse,
    n: number,
    server: ReturnType<typeof createServer>,
  ) => void,
): Promise<Served> {
  const served = { url: '', posts: 0, close: () => Promise.resolve() };
  const server = createServer((request, response) => {
    served.posts += 1;
    answer(request, response, served.posts, server);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  served.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
      // Closed already (the test closed it to refuse connections): nothing to wait for.
      if (!server.listening) resolve();
    });
  return served;
}

/** Sends the order through a fresh journal and client; returns the error, the journal, and the record's state. */
async function send(url: string, retries: number) {
  const journal = new Journal(stateDir, { origin: url, keyId: keyIdOf(credentials.apiKey) });
  const client = new EnergyClient({
    baseUrl: new URL(url),
    credentials,
    retryPolicy: { retries, baseDelayMs: 1, maxDelayMs: 5 },
  });
  const { record } = await journal.begin(ID, BODY);
  try {
    const error = await sendJournaled({ client, journal, recoverCommand: (id) => `energy order recover ${id}` }, record)
      .then(() => undefined)
      .catch((e: unknown) => e);
    const pending = journal.pending().map((r) => r.client_request_id);
    return { error, pending, settled: pending.length === 0 ? journal.find(ID)?.outcome : undefined, journal };
  } finally {
    await client.close();
  }
}

const problem = (response: ServerResponse, status: number) =>
  response
    .writeHead(status, { 'content-type': 'application/problem+json' })
    .end(JSON.stringify({ type: 'about:blank', title: 'x', status, detail: 'x', code: `HTTP_${status}` }));

describe('an order request that may have arrived stays pending', () => {
  it('a dropped request, then a refused connection: the doubt of the first attempt stays', async () => {
    // The first request arrives and its connection is cut; the server stops listening, so the retry is refused.
    const served = await serve((request, _response, _n, server) => {
      server.close();
      request.socket.destroy();
    });
    try {
      const { error, pending } = await send(served.url, 1);
      expect(served.posts).toBe(1);
      expect(error).toBeInstanceOf(OrderOutcomeUnknownError);
      expect((error as OrderOutcomeUnknownError).message).toMatch(/connection refused \(2 attempts\).*may or may not/);
      expect(pending).toEqual([ID]);
    } finally {
      await served.close();
    }
  });

  it.each([500, 502, 503, 504])('a final HTTP %i: exit 7, pending, never "refused"', async (status) => {
    const served = await serve((_request, response) => problem(response, status));
    try {
      const { error, pending, journal } = await send(served.url, 1);
      expect(served.posts).toBe(2);
      expect(error).toBeInstanceOf(OrderOutcomeUnknownError);
      expect((error as OrderOutcomeUnknownError).exitCode).toBe(ExitCode.service);
      expect(pending).toEqual([ID]);
      expect(journal.find(ID)!.last_error).toMatch(new RegExp(`HTTP_${status}`));
    } finally {
      await served.close();
    }
  });
});

describe('an order request with a definite answer is settled', () => {
  it('a refused connection (nothing can have left): settled "not sent", the error as it was', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { error, pending, settled } = await send(url, 1);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(OrderOutcomeUnknownError);
    expect((error as NetworkError).outcomeUncertain).toBe(false);
    expect(pending).toEqual([]);
    expect(settled).toMatchObject({ kind: 'not-sent', reason: expect.stringMatching(/connection refused/) });
  });

  it('a 422 after a 503: refused by the answer, but the 503 leaves the doubt (pending)', async () => {
    const served = await serve((_request, response, n) => problem(response, n === 1 ? 503 : 422));
    try {
      const { error, pending } = await send(served.url, 1);
      expect(served.posts).toBe(2);
      expect(error).toBeInstanceOf(OrderOutcomeUnknownError);
      expect(pending).toEqual([ID]);
    } finally {
      await served.close();
    }
  });

  it('a 422 alone: settled "refused" with its status and code', async () => {
    const served = await serve((_request, response) => problem(response, 422));
    try {
      const { pending, settled } = await send(served.url, 1);
      expect(served.posts).toBe(1);
      expect(pending).toEqual([]);
      expect(settled).toMatchObject({ kind: 'refused', status: 422, code: 'HTTP_422' });
    } finally {
      await served.close();
    }
  });
});
