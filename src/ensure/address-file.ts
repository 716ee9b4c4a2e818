/**
 * `ensure --file <path>` (`-` for standard input): the addresses to keep supplied, one a line, as a fleet's
 * list of 50,000 does not fit a command line (`Argument list too long`). Read as `order batch` reads its files:
 * UTF-8, a byte order mark dropped, lines ending in LF or CRLF; blank lines and `#` comments (a line of its own,
 * or after the address) are skipped. Every line is checked before anything is read from the chain; a service
 * reads its file again at each cycle (service-cycle.ts), so that an address added or removed takes effect
 * without a restart.
 */
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { checkTronAddress } from '../domain/address.js';
import { UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import type { EnsureOptions } from './ensure-types.js';

/** A list this large is no address list (50,000 addresses take about 1.8 MB). */
const MAX_BYTES = 64 * 1024 * 1024;

/** The addresses of a file's text, in order, each once; a bad line is a usage error naming it (exit 2). */
export function addressesOf(text: string, label: string): string[] {
  const found: string[] = [];
  const bad: string[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, index) => {
    const address = line.replace(/#.*$/, '').trim();
    if (address === '') return;
    const check = checkTronAddress(address);
    if (check.ok) found.push(address);
    else bad.push(`line ${index + 1}: ${printable(address.slice(0, 40), 40)} is not a TRON address (${check.reason})`);
  });
  if (bad.length > 0)
    throw new UsageError(
      `${label}: ${bad.length === 1 ? bad[0] : `${bad.length} lines are not TRON addresses: ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? '; …' : ''}`}`,
      { hint: 'one address a line; blank lines and # comments are skipped' },
    );
  return found;
}

/** Reads `path` (or standard input for `-`) whole, within MAX_BYTES, as UTF-8. */
export async function readAddressFile(path: string, stdin: Readable): Promise<string[]> {
  const label = path === '-' ? 'stdin' : printable(path, 200);
  let text: string;
  try {
    text = path === '-' ? await readStream(stdin) : await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`--file ${label}: cannot be read (${code})`, {
      hint: 'give a file of addresses, one a line, or - for standard input',
    });
  }
  if (text.length > MAX_BYTES) throw new UsageError(`--file ${label}: larger than ${MAX_BYTES / 1024 / 1024} MiB`);
  return addressesOf(text, label);
}

async function readStream(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BYTES) throw new UsageError(`--file stdin: larger than ${MAX_BYTES / 1024 / 1024} MiB`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The run's addresses with those of --file after the command line's, each once; a service's list read again at
 * each cycle (service-cycle.ts) from a file, not from standard input (read once).
 */
export async function withAddressFile(
  run: EnsureOptions,
  path: string,
  stdin: Readable,
  everyMs: number | undefined,
  note: (line: string) => void,
): Promise<EnsureOptions> {
  const read = async () => [...new Set([...run.addresses, ...(await readAddressFile(path, stdin))])];
  const addresses = await read();
  if (everyMs === undefined || path === '-') return { ...run, addresses };
  return {
    ...run,
    addresses,
    rereadAddresses: async (last) => {
      try {
        return await read();
      } catch (error) {
        // A file caught half-written, or a bad line: the service keeps supplying the list it had.
        note(`energy: ${(error as Error).message}; keeping the ${last.length} address(es) read before`);
        return last;
      }
    },
  };
}
