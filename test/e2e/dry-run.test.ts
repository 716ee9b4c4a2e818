/**
 * `order create --dry-run`: checks, quote and consent as usual, then the exact request it would send, with
 * the signature masked; nothing reaches the order endpoint and nothing is journaled.
 */
import { createHmac } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bodyHash } from '../../src/signing/index.js';
import { freshAddress } from '../helpers/e2e.js';
import { json } from '../helpers/world.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const ORDERS = '/v1/energy/orders';
const QUOTES = '/v1/energy/quotes';

const world = worldForSuite();

function journalFiles(): string[] {
  const names: string[] = [];
  for (const state of ['pending', 'settled']) {
    try {
      names.push(...readdirSync(join(world.stateDir, 'journal', state)));
    } catch {
      // No folder: nothing journaled.
    }
  }
  return names;
}

interface Preview {
  method: string;
  path: string;
  body: string;
  canonical: string;
  headers: Record<string, string>;
}

describe('order create --dry-run', () => {
  it('quotes, then prints the exact request (--json); no order, no journal record', async () => {
    const address = freshAddress(9501);
    const posts = world.sandbox.requestCount(ORDERS);
    const quotes = world.sandbox.requestCount(QUOTES);
    const orders = world.sandbox.orders().length;
    const result = await world.run(
      orderCreateArgs(address, '--yes', '--dry-run', '--json', '--client-request-id', 'dry-1'),
    );
    expect(result.code, result.stderr).toBe(0);
    const preview = json<Preview>(result);
    expect(Object.keys(preview).sort()).toEqual(['body', 'canonical', 'headers', 'method', 'path']);
    expect(preview.method).toBe('POST');
    expect(preview.path).toBe(ORDERS);
    expect(preview.body).toBe(
      `{"client_request_id":"dry-1","address":"${address}","energy":65000,"duration_hours":1,"expected_total_trx":"3.700000"}`,
    );
    const timestamp = preview.headers['x-request-timestamp']!;
    expect(preview.canonical).toBe(`${timestamp}\nPOST\n${ORDERS}\n\n${bodyHash(preview.body)}`);
    expect(preview.headers['content-type']).toBe('application/json');
    expect(preview.headers.authorization).toMatch(/^HMAC-SHA256 \S+:\[REDACTED\]$/);
    const signature = createHmac('sha256', world.sandbox.apiSecret).update(preview.canonical).digest('base64');
    expect(result.stdout).not.toContain(signature);
    expect(result.stdout + result.stderr).not.toContain(world.sandbox.apiSecret);
    expect(world.sandbox.requestCount(QUOTES) - quotes).toBe(1);
    expect(world.sandbox.requestCount(ORDERS) - posts).toBe(0);
    expect(world.sandbox.orders()).toHaveLength(orders);
    expect(journalFiles()).toEqual([]);
    // --json: every stderr line is one JSON object, the dry-run note included.
    const notes = result.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { note?: { message: string } });
    expect(notes.map((line) => line.note?.message)).toContain(
      'dry run: nothing was sent to the order endpoint and nothing was journaled',
    );
  });

  it('prints the request readably without --json, and still needs consent (exit 2 without it)', async () => {
    const address = freshAddress(9502);
    const shown = await world.run(orderCreateArgs(address, '--yes', '--dry-run'));
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^POST \/v1\/energy\/orders\n/);
    expect(shown.stdout).toContain('authorization: HMAC-SHA256 ');
    expect(shown.stdout).toContain(`"address":"${address}"`);
    expect(shown.stderr).toContain('nothing was sent to the order endpoint and nothing was journaled');
    const refused = await world.run(orderCreateArgs(address, '--dry-run'));
    expect(refused.code).toBe(2);
    expect(world.sandbox.requestCount(ORDERS)).toBe(0);
    expect(journalFiles()).toEqual([]);
  });
});
