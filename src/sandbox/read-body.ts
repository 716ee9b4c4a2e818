/** Reads a request body up to a byte limit, without ever buffering more than the limit. */
import type { IncomingMessage } from 'node:http';

export type BodyOutcome = { kind: 'ok'; body: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

export function readBody(req: IncomingMessage, limitBytes: number): Promise<BodyOutcome> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    // Discard what is still coming so that the client can read the 413 instead of a write error.
    req.resume();
    return Promise.resolve({ kind: 'too-large' });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limitBytes) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        req.resume();
        resolve({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => resolve({ kind: 'ok', body: Buffer.concat(chunks, size) });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => resolve({ kind: 'aborted' }));
    // A client that goes away mid-body: nothing is handled and nothing answered.
    req.on('close', () => {
      if (!req.complete) resolve({ kind: 'aborted' });
    });
  });
}
