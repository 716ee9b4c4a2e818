import { describe, expect, it } from 'vitest';
import { bodyHash, canonicalPayload, encodeQuery, hmacSignature, signRequest } from '../../../src/signing/index.js';
// Made by test/fixtures/make-signing-vectors.sh with openssl, not by the code under test.
import { requestParts, signingFixture as fixture } from '../../helpers/signing-vectors.js';

describe.each(fixture.vectors)('signing vector: $name', (vector) => {
  const body = vector.body ?? undefined;

  it('hashes the body bytes, or gives the empty string for no body', () => {
    expect(bodyHash(body)).toBe(vector.bodyHash);
  });

  it('builds the canonical payload byte for byte', () => {
    const payload = canonicalPayload({ ...requestParts(vector), bodyHash: vector.bodyHash });
    expect(payload).toBe(vector.canonicalPayload);
  });

  it('signs to the known base64 HMAC-SHA256', () => {
    expect(hmacSignature(fixture.apiSecret, vector.canonicalPayload)).toBe(vector.signature);
  });

  it('produces the Authorization and X-Request-Timestamp headers', () => {
    const headers = signRequest({
      method: vector.method,
      path: vector.path,
      query: vector.query,
      body: body === undefined ? undefined : Buffer.from(body, 'utf8'),
      timestamp: vector.timestamp,
      apiKey: fixture.apiKey,
      apiSecret: fixture.apiSecret,
    });
    expect(headers).toEqual({ authorization: vector.authorization, 'x-request-timestamp': String(vector.timestamp) });
  });
});

describe('canonical payload rules', () => {
  it('ends with a line feed when there is neither query nor body (rule 7)', () => {
    const payload = canonicalPayload({ timestamp: 1, method: 'get', path: '/v1/time', query: '', bodyHash: '' });
    expect(payload).toBe('1\nGET\n/v1/time\n\n');
  });

  it('upper-cases the method (rule 2)', () => {
    expect(canonicalPayload({ timestamp: 1, method: 'post', path: '/p', query: '', bodyHash: '' })).toContain(
      '\nPOST\n',
    );
  });

  it.each([
    ['a query without its "?"', { query: 'limit=5' }],
    ['a path carrying the query', { path: '/v1/energy/orders?limit=5' }],
    ['a fractional timestamp', { timestamp: 1.5 }],
  ])('refuses %s', (_label, override) => {
    expect(() =>
      canonicalPayload({
        timestamp: 1,
        method: 'GET',
        path: '/v1/energy/orders',
        query: '',
        bodyHash: '',
        ...override,
      }),
    ).toThrow(RangeError);
  });

  it('treats a zero-length body as no body (rule 5)', () => {
    expect(bodyHash('')).toBe('');
    expect(bodyHash(new Uint8Array())).toBe('');
  });
});

describe('encodeQuery', () => {
  it('encodes the vector query exactly as signed', () => {
    expect(encodeQuery({ limit: 50, cursor: 'b2s+c3VyZQ== x/y' })).toBe(fixture.vectors[1]?.query);
  });

  it('is empty when no value is given', () => {
    expect(encodeQuery({ limit: undefined, cursor: undefined })).toBe('');
  });

  it("percent-encodes the RFC 3986 reserved !'()*", () => {
    expect(encodeQuery({ c: "a!b'c(d)e*" })).toBe('?c=a%21b%27c%28d%29e%2A');
  });
});
