/**
 * The batch file, read as many times as the batch needs it (check, quote, order) without holding it in
 * memory: from one private snapshot taken at the start (standard input can be read only once, and a file
 * may change during the run).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UsageError } from '../domain/errors.js';
import { unlinkQuietly } from '../storage/durable-file.js';
import { PRIVATE_FILE_MODE } from '../storage/file-modes.js';
import { readLines } from './line-reader.js';
import { detectFormat, LineParser, type BatchFormat, type BatchLine, type BatchRules } from './parse-line.js';

export interface BatchSource {
  path: string;
  /** How errors name it: the file name, or "stdin". */
  label: string;
  format: BatchFormat;
  /** SHA-256 of the whole file: what derived client_request_ids are made from. */
  digest: string;
  /** Lines that are orders (not the header, not blank). */
  orderCount: number;
  rules: BatchRules;
}

/**
 * A private snapshot of `spec` (a file, or `-` for standard input) in `spoolDir`, and how to clean up after.
 * Every later pass reads the snapshot: the bytes hashed into the line ids are the bytes that are ordered,
 * even when the file is replaced or appended to during the run.
 */
export async function openInput(
  spec: string,
  stdin: Readable,
  spoolDir: string,
): Promise<{ path: string; label: string; cleanup: () => void }> {
  if (spec !== '-') {
    try {
      if (!statSync(spec).isFile()) throw new UsageError(`${spec} is not a file`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read ${spec}: ${readFailure(error)}`);
    }
  }
  const path = join(spoolDir, `energy-batch-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await pipeline(
      spec === '-' ? stdin : createReadStream(spec),
      createWriteStream(path, { mode: PRIVATE_FILE_MODE, flags: 'wx' }),
    );
  } catch (error) {
    unlinkQuietly(path);
    throw new UsageError(`cannot read ${spec === '-' ? 'stdin' : spec}: ${readFailure(error)}`);
  }
  return { path, label: spec === '-' ? 'stdin' : spec, cleanup: () => unlinkQuietly(path) };
}

function readFailure(error: unknown): string {
  return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not readable';
}

/**
 * Checks every line before anything is bought: the format, each field against the API's options, and
 * that no client_request_id appears twice. Throws a UsageError naming the first bad line.
 */
export async function checkBatch(
  path: string,
  label: string,
  rules: BatchRules,
  format: BatchFormat | undefined,
): Promise<BatchSource> {
  const hash = createHash('sha256');
  const seen = new Map<string, number>();
  let parser: LineParser | undefined;
  let orderCount = 0;
  for await (const physical of readLines(hashing(createReadStream(path), hash), label)) {
    parser ??= new LineParser(format ?? detectFormat(physical.text, label === 'stdin' ? '' : label), label, rules);
    const line = parser.parse(physical);
    if (line === undefined) continue;
    orderCount += 1;
    if (line.clientRequestId !== undefined) {
      const earlier = seen.get(line.clientRequestId);
      if (earlier !== undefined) {
        throw new UsageError(
          `${label}, line ${line.line}: client_request_id ${line.clientRequestId} is already on line ${earlier}: nothing was bought`,
        );
      }
      seen.set(line.clientRequestId, line.line);
    }
  }
  if (parser === undefined || orderCount === 0) throw new UsageError(`${label} has no orders`);
  return { path, label, format: parser.format, digest: hash.digest('hex'), orderCount, rules };
}

/** The orders of a checked batch, in file order, read afresh. */
export async function* batchLines(source: BatchSource): AsyncGenerator<BatchLine> {
  const parser = new LineParser(source.format, source.label, source.rules);
  for await (const physical of readLines(createReadStream(source.path), source.label)) {
    const line = parser.parse(physical);
    if (line !== undefined) yield line;
  }
}

/** The id of a line that names none: the same for the same file, another for any other file. */
export function lineRequestId(source: BatchSource, line: BatchLine): string {
  return line.clientRequestId ?? `batch-${source.digest.slice(0, 24)}-${line.line}`;
}

async function* hashing(
  chunks: AsyncIterable<Uint8Array>,
  hash: ReturnType<typeof createHash>,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    hash.update(chunk);
    yield chunk;
  }
}
