/**
 * The sandbox verifies signatures with its own canonical string (src/sandbox/canonical-request.ts), not the
 * client's signer: every openssl-made vector (test/fixtures/make-signing-vectors.sh) must pass its check, and
 * any change to a signed part must fail it. So an end-to-end test that the sandbox accepts is a second opinion.
 */
import { describe, expect, it } from 'vitest';
import { canonicalRequest, requestSignature } from '../../../src/sandbox/canonical-request.js';
import { verifyAuth, type AuthInput } from '../../../src/sandbox/verify-auth.js';
import {
  requestParts,
  signingFixture as fixture,
  type SigningVector as Vector,
} from '../../helpers/signing-vectors.js';

function received(vector: Vector, overrides: Partial<AuthInput> = {}): AuthInput {
  return {
    method: vector.method,
    path: vector.path,
    query: vector.query,
    headers: { authorization: vector.authorization, 'x-request-timestamp': String(vector.timestamp) },
    body: Buffer.from(vector.body ?? '', 'utf8'),
    serverSeconds: vector.timestamp,
    apiKey: fixture.apiKey,
    apiSecret: fixture.apiSecret,
    ...overrides,
  };
}

describe.each(fixture.vectors)('the sandbox on the openssl vector: $name', (vector) => {
  it('builds the canonical bytes exactly', () => {
    const bytes = canonicalRequest({ ...requestParts(vector), body: Buffer.from(vector.body ?? '', 'utf8') });
    expect(bytes.toString('utf8')).toBe(vector.canonicalPayload);
    expect(requestSignature(fixture.apiSecret, bytes)).toBe(vector.signature);
  });

  it('accepts the request', () => {
    expect(verifyAuth(received(vector))).toEqual({ ok: true, apiKey: fixture.apiKey });
  });

  it.each([
    ['the method', (v: Vector) => ({ method: v.method === 'GET' ? 'POST' : 'GET' })],
    ['the path', (v: Vector) => ({ path: `${v.path}x` })],
    ['the query', (v: Vector) => ({ query: v.query === '' ? '?x=1' : `${v.query}&x=1` })],
    ['the body', (v: Vector) => ({ body: Buffer.from(`${v.body ?? ''} `, 'utf8') })],
    ['the secret', () => ({ apiSecret: `${fixture.apiSecret}x` })],
    [
      'the timestamp header',
      (v: Vector) => ({
        headers: { authorization: v.authorization, 'x-request-timestamp': String(v.timestamp + 1) },
        serverSeconds: v.timestamp + 1,
      }),
    ],
  ])('refuses it with %s changed', (_part, change) => {
    const outcome = verifyAuth(received(vector, change(vector)));
    expect(outcome.ok).toBe(false);
    expect(outcome.ok ? undefined : JSON.parse(outcome.reply.body)).toMatchObject({ code: 'AUTH_SIGNATURE' });
  });
});
