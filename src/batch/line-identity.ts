/**
 * A batch line's identity: the client_request_id a line without one gets, so that a line is one order
 * however the file grows, and the same file run again (from this host or another) buys nothing twice.
 */
import { hash } from 'node:crypto';
import type { BatchLine } from './parse-line.js';
import type { BatchSource } from './source.js';

/**
 * The id of a line that names none: `batch-` and 32 hex digits of SHA-256 over the batch's name (the file's
 * base name, or "stdin"), the line's address, energy and hours, and its occurrence (the first, second…
 * line of the file asking for the same). Not the line's number nor the file's bytes: so a line is one
 * order however the file grows. Appending lines buys only the new ones; a reordered file, a deleted line,
 * CRLF or LF, CSV or NDJSON, a moved file or another folder are the same batch (nothing bought again); a
 * line repeated buys once more (its next occurrence); a copy under another name is another batch.
 */
export function lineRequestId(source: Pick<BatchSource, 'name'>, line: BatchLine): string {
  if (line.clientRequestId !== undefined) return line.clientRequestId;
  const identity = `batch line v2\n${source.name}\n${line.address}\n${line.energy}\n${line.hours}\n${line.occurrence}`;
  // One-shot crypto.hash: no Hash object (and its native state) per line of a file read three times.
  return `batch-${hash('sha256', identity, 'hex').slice(0, 32)}`;
}

/**
 * The id earlier versions of energy gave the same line (the file's hash and the line's number): a batch
 * begun by one of them and run again after an upgrade finds its journaled lines under it, and buys none
 * of them again.
 */
export function legacyRequestId(source: Pick<BatchSource, 'digest'>, line: BatchLine): string | undefined {
  return line.clientRequestId === undefined ? `batch-${source.digest.slice(0, 24)}-${line.line}` : undefined;
}

/** How wide a derived id is: a readable table streamed a line at a time needs it up front. */
export const DERIVED_ID_WIDTH = 'batch-'.length + 32;
