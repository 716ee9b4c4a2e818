/**
 * The batch file, read as many times as the batch needs it (check, quote, order) without holding it in
 * memory: from one private snapshot taken at the start (standard input can be read only once, and a file
 * may change during the run).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CliError, UsageError } from '../domain/errors.js';
import { unlinkQuietly } from '../storage/durable-file.js';
import { pipeStream } from '../storage/pipe-stream.js';
import { PRIVATE_FILE_MODE } from '../storage/file-modes.js';
import { MAX_LINE_LENGTH, readLines, tooLong } from './line-reader.js';
import { BadLineError } from '../domain/cli-errors.js';
import { BadLines } from './bad-lines.js';
import { detectFormat, LineParser, type BatchFormat, type BatchLine, type BatchRules } from './parse-line.js';

export interface BatchSource {
  path: string;
  /** How errors name it: the file name, or "stdin". */
  label: string;
  /** The batch's name in its lines' derived ids: the file's base name, or "stdin" (see lineRequestId). */
  name: string;
  format: BatchFormat;
  /** SHA-256 of the whole file: what earlier versions made line ids from (see legacyRequestId). */
  digest: string;
  /** Lines that are orders (not the header, not blank). */
  orderCount: number;
  /** The keys of lines that may repeat an earlier line's order (occurrences.ts). */
  repeats: ReadonlySet<string>;
  rules: BatchRules;
}

/**
 * A private snapshot of `spec` (a file, a pipe, or `-` for standard input) in `spoolDir`, and how to clean up
 * after; `stream` when it was read as a stream (standard input, a pipe), which has no name of its own.
 * Every later pass reads the snapshot: the bytes hashed into the line ids are the bytes that are ordered,
 * even when the file is replaced or appended to during the run.
 */
export async function openInput(
  spec: string,
  stdin: Readable,
  spoolDir: string,
  interrupt?: AbortSignal,
): Promise<{ path: string; label: string; stream: boolean; cleanup: () => void }> {
  const label = spec === '-' ? 'stdin' : spec;
  let input: Readable = stdin;
  let stream = spec === '-';
  if (spec !== '-') {
    try {
      const stat = statSync(spec);
      stream = stat.isFIFO();
      if (stat.isFile()) input = createReadStream(spec);
      else if (stream) input = pipeStream(spec);
      else throw new UsageError(`${spec} is not a file or a pipe`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read ${spec}: ${readFailure(error)}`);
    }
  }
  const path = join(spoolDir, `energy-batch-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  try {
    await pipeline(
      input,
      lineLengthCap(label),
      createWriteStream(path, { mode: PRIVATE_FILE_MODE, flags: 'wx' }),
      // A signal ends the copy at once (an endless stdin would otherwise hold the run until the forced exit).
      interrupt === undefined ? {} : { signal: interrupt },
    );
  } catch (error) {
    unlinkQuietly(path);
    if (interrupt?.aborted === true && interrupt.reason instanceof CliError) throw interrupt.reason;
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${label}: ${readFailure(error)}`);
  }
  return { path, label, stream, cleanup: () => unlinkQuietly(path) };
}

/**
 * Stops the copy at the first line longer than any batch line can be: `order batch - < /dev/zero` fails
 * at once instead of filling the temporary folder. Counts bytes since the last newline, so a file of any
 * number of ordinary lines passes.
 */
function lineLengthCap(label: string): Transform {
  let sinceNewline = 0;
  let line = 1;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        if (sinceNewline + newline - start > MAX_LINE_BYTES) return done(tooLong(label, line));
        sinceNewline = 0;
        line += 1;
        start = newline + 1;
      }
      sinceNewline += chunk.length - start;
      if (sinceNewline > MAX_LINE_BYTES) return done(tooLong(label, line));
      done(null, chunk);
    },
  });
}

/** A character is at most 4 bytes of UTF-8: the reader's character cap, in bytes. */
const MAX_LINE_BYTES = MAX_LINE_LENGTH * 4;

function readFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'a folder, not a file';
  if (code === 'ENOSPC') return 'no space left for its copy in the temporary folder';
  return code === undefined ? 'not readable' : `not readable (${code})`;
}

/** Where a snapshot came from: its path, how errors name it, and the batch's name in derived ids. */
export interface BatchInput {
  path: string;
  label: string;
  name: string;
}

/**
 * Checks every line before anything is bought: the format, each field against the API's options, and
 * that no client_request_id appears twice. Every bad line is reported in one run: one alone is the
 * error; of several, each goes to `onBadLine` as it is found (a note on stderr) and the error counts them.
 * A problem no line can be read past (the header, a line too long, bytes that are not UTF-8) ends the
 * check at once.
 */
export async function checkBatch(
  input: BatchInput,
  rules: BatchRules,
  format: BatchFormat | undefined,
  onBadLine: (error: BadLineError) => void,
): Promise<BatchSource> {
  const { path, label } = input;
  const hash = createHash('sha256');
  const seen = new Map<string, number>();
  const bad = new BadLines(onBadLine);
  let parser: LineParser | undefined;
  let orderCount = 0;
  for await (const physical of readLines(hashing(createReadStream(path), hash), label)) {
    parser ??= new LineParser(format ?? detectFormat(physical.text, label === 'stdin' ? '' : label), label, rules);
    let line: BatchLine | undefined;
    try {
      line = parser.parse(physical);
    } catch (error) {
      if (!(error instanceof BadLineError)) throw error;
      bad.add(error);
      continue;
    }
    if (line === undefined) continue;
    orderCount += 1;
    if (line.clientRequestId !== undefined) {
      const earlier = seen.get(line.clientRequestId);
      if (earlier !== undefined)
        bad.add(
          new BadLineError(label, line.line, `client_request_id ${line.clientRequestId} is already on line ${earlier}`),
        );
      else seen.set(line.clientRequestId, line.line);
    }
  }
  bad.end(label);
  if (parser === undefined || orderCount === 0) throw new UsageError(`${label} has no orders`);
  return {
    ...input,
    format: parser.format,
    digest: hash.digest('hex'),
    orderCount,
    rules,
    repeats: parser.repeats?.candidates ?? new Set<string>(),
  };
}

/** The orders of a checked batch, in file order, read afresh. */
export async function* batchLines(source: BatchSource): AsyncGenerator<BatchLine> {
  const parser = new LineParser(source.format, source.label, source.rules, source.repeats);
  for await (const physical of readLines(createReadStream(source.path), source.label)) {
    const line = parser.parse(physical);
    if (line !== undefined) yield line;
  }
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
