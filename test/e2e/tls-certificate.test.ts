/**
 * A TLS certificate the machine does not trust ends an order at once: the handshake fails before any HTTP
 * byte, so the order is known not to be placed (journaled as not sent, nothing pending), and no attempt is
 * repeated. Counted at the server.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates, type TestCertificates } from '../helpers/proxy.js';
import { ADDRESS, createWorld, json, type World } from '../helpers/world.js';

let world: World;
let certificates: TestCertificates;
let server: Server;
let origin = '';
let handshakes = 0;
let requests = 0;
beforeAll(async () => {
  world = await createWorld();
  certificates = makeCertificates();
  server = createServer({ key: certificates.key, cert: certificates.cert }, (_request, response) => {
    requests += 1;
    response.end();
  });
  server.on('connection', () => (handshakes += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  certificates.remove();
  await world.close();
});

describe('an untrusted TLS certificate', () => {
  it('is one attempt, and the order is not placed: nothing pending, nothing journaled', async () => {
    const result = await world.run(
      ['order', 'create', ADDRESS, '--energy', '65000', '--hours', '1', '--expected-total', '2.600000'],
      { env: { ENERGY_BASE_URL: origin } },
    );
    expect(result.code).toBe(7);
    expect(result.stderr).toMatch(/TLS certificate was refused: .*\(1 attempt\)/);
    expect(result.stderr).not.toMatch(/order recover|may or may not/);
    expect([handshakes, requests]).toEqual([1, 0]);
    const pending = await world.run(['order', 'pending', '--json'], { env: { ENERGY_BASE_URL: origin } });
    expect(pending.code, pending.stderr).toBe(0);
    expect(json<{ items: unknown[] }>(pending).items).toEqual([]);
    // The options read (for intake) meets the certificate first: the order is never journaled nor sent.
    const settled = join(world.stateDir, 'journal', 'settled');
    const records = existsSync(settled) ? readdirSync(settled).filter((name) => name.endsWith('.json')) : [];
    expect(records).toHaveLength(0);
  });
});

describe('the hint for a certificate from a private CA', () => {
  it('names NODE_EXTRA_CA_CERTS, and following it reaches the server', async () => {
    const refused = await world.run(['balance'], { env: { ENERGY_BASE_URL: origin } });
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain('(UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
    expect(refused.stderr).toMatch(/^hint: .*NODE_EXTRA_CA_CERTS=\/path\/to\/ca\.pem/m);
    // Another CA in the file: the hint says the file lacks the one that signed it.
    const other = makeCertificates();
    try {
      const wrong = await world.run(['balance'], {
        env: { ENERGY_BASE_URL: origin, NODE_EXTRA_CA_CERTS: other.caFile },
      });
      expect(wrong.code).toBe(7);
      expect(wrong.stderr).toContain(`hint: NODE_EXTRA_CA_CERTS names ${other.caFile}, which does not hold the CA`);
    } finally {
      other.remove();
    }
    const before = requests;
    const trusted = await world.run(['balance'], {
      env: { ENERGY_BASE_URL: origin, NODE_EXTRA_CA_CERTS: certificates.caFile },
    });
    // The handshake passes: the request reaches the server (whose empty answer is not a balance).
    expect(requests).toBeGreaterThan(before);
    expect(trusted.stderr).not.toContain('certificate was refused');
  });
});
