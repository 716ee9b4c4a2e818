/**
 * The openssl-made signing vectors (test/fixtures/signing-vectors.json, written by
 * test/fixtures/make-signing-vectors.sh), loaded in one place: four suites check different code against the
 * same bytes (the signer, the sandbox's verifier, the transport on the wire, a prefixed base URL), and one
 * loader keeps them reading one fixture the same way.
 */
import { readFileSync } from 'node:fs';
import { jsonReply, type ScriptedServer } from './http-server.js';
import { sampleOrder } from './sample-order.js';

export interface SigningVector {
  name: string;
  timestamp: number;
  method: string;
  path: string;
  query: string;
  body: string | null;
  bodyHash: string;
  canonicalPayload: string;
  signature: string;
  authorization: string;
  /** Only on the vector for a base URL with a path prefix: the path the request is sent to. */
  sentPath?: string;
}

export const signingFixture = JSON.parse(
  readFileSync(new URL('../fixtures/signing-vectors.json', import.meta.url), 'utf8'),
) as { apiKey: string; apiSecret: string; vectors: SigningVector[] };

/** What both canonical builders (the client's signer, the sandbox's verifier) take from a vector, besides the body. */
export function requestParts(v: SigningVector): Pick<SigningVector, 'timestamp' | 'method' | 'path' | 'query'> {
  return { timestamp: v.timestamp, method: v.method, path: v.path, query: v.query };
}

/** The vector whose name starts with `start`; throws if there is none, so a renamed vector fails loudly. */
export function vectorNamed(start: string): SigningVector {
  const found = signingFixture.vectors.find((v) => v.name.startsWith(start));
  if (found === undefined) throw new Error(`no vector "${start}"`);
  return found;
}

/** The vector for a base URL with a path prefix (the one with a `sentPath`). */
export function prefixedVector(): SigningVector & { sentPath: string; body: string } {
  const found = signingFixture.vectors.find((v) => v.sentPath !== undefined);
  if (found === undefined) throw new Error('no vector with a sentPath');
  return found as SigningVector & { sentPath: string; body: string };
}

interface OrderBody {
  client_request_id: string;
  address: string;
  energy: number;
  duration_hours: number;
  expected_total_trx: string;
}

/**
 * Reads a vector's order body and scripts the server's 201 for it (the order it asks for), so that a
 * createOrder call with that body succeeds and the test can look at what went on the wire.
 */
export function scriptCreatedOrder(server: ScriptedServer, body: string): OrderBody {
  const order = JSON.parse(body) as OrderBody;
  server.script(
    jsonReply(
      201,
      sampleOrder({
        client_request_id: order.client_request_id,
        address: order.address,
        total_trx: order.expected_total_trx,
      }),
    ),
  );
  return order;
}
