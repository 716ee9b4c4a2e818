/**
 * `energy api <METHOD> <path>`: one signed request written by hand, through the same transport as every
 * command (signing, retries, clock offset). A POST that could place an order goes through the journal
 * like any order, so that no order ever leaves this program unrecorded.
 */
import type { Readable } from 'node:stream';
import type { EnergyClient } from '../client/client.js';
import { UsageError } from '../domain/errors.js';
import { BoundedReadError, ConflictError } from '../domain/cli-errors.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { orderBody } from '../journal/record.js';
import { checkFields, fieldsBody, withFieldsQuery, type ApiField } from './api-fields.js';
import { sendJournaled } from './send-journaled.js';

export interface ApiRequest {
  method: string;
  path: string;
  fields: readonly ApiField[];
  /** --input: a file name, or `-` for standard input: the body's exact bytes. */
  input?: string | undefined;
}

export interface ApiDeps {
  client: () => Promise<EnergyClient>;
  journal: () => Promise<OrderJournal>;
  stdin: Readable;
  /** Ends a read of standard input at once (Ctrl-C, SIGTERM). */
  interrupt?: AbortSignal | undefined;
  recoverCommand: (clientRequestId: string) => string;
}

export interface ApiAnswer {
  status: number;
  body: Buffer;
}

const ORDERS = '/v1/energy/orders';
/** The methods of Energy API v1, as `energy api` takes them, and the paths each takes (completion offers them). */
export const API_METHODS = ['GET', 'POST'] as const;
export const API_PATHS: Readonly<Record<(typeof API_METHODS)[number], readonly string[]>> = {
  GET: ['/v1/time', '/v1/balance', '/v1/energy/options', ORDERS],
  POST: ['/v1/energy/quotes', ORDERS],
};

/**
 * The largest body `--input` sends: far above any request of Energy API v1 (a few hundred bytes), and
 * enough to provoke a server's 413; `--input - < /dev/zero` stops there, with exit 2, instead of growing
 * until the process dies.
 */
export const MAX_INPUT_BYTES = 1_048_576;

export async function apiRequest(deps: ApiDeps, request: ApiRequest): Promise<ApiAnswer> {
  const method = request.method.toUpperCase();
  if (!isApiMethod(method))
    throw new UsageError(`the method must be GET or POST (all that Energy API v1 has), got ${request.method}`);
  checkFields(request.fields);
  const written = isUrl(request.path)
    ? sameOriginPath(request.path, (await deps.client()).transport.baseUrl)
    : request.path;
  const { path, query: pathQuery } = splitPath(written);
  const input = request.input === undefined ? undefined : await readInput(request.input, deps);
  // As gh api: fields are the JSON body of a POST, unless --input gives the body; then they go in the query.
  const fieldsInBody = method === 'POST' && input === undefined && request.fields.length > 0;
  const body = input ?? (fieldsInBody ? Buffer.from(fieldsBody(request.fields), 'utf8') : undefined);
  const query = fieldsInBody ? pathQuery : withFieldsQuery(pathQuery, request.fields);
  if (method === 'POST' && placesOrders(path)) {
    if (path !== ORDERS || query !== '')
      throw new UsageError(`write the order endpoint as POST ${ORDERS}, with no query: nothing was sent`);
    return sendOrder(deps, body);
  }
  const client = await deps.client();
  const response = await client.transport.sendRaw({ method, path, query, body });
  return { status: response.status, body: response.bytes ?? Buffer.from(response.text, 'utf8') };
}

function isApiMethod(method: string): method is (typeof API_METHODS)[number] {
  return (API_METHODS as readonly string[]).includes(method);
}

/** `https://…`, `http://…`, `//host/…`: a URL, not a path (which `splitPath` would send as `/https://…`). */
function isUrl(written: string): boolean {
  return /^([a-z][a-z0-9+.-]*:)?\/\//i.test(written);
}

/**
 * A full URL, as `gh api` takes one: only on the configured API (its origin, under its path prefix), and then
 * as its path; another server is refused before anything is signed or sent: the signature and the key id are
 * for the API this profile names, never a URL typed on the command line.
 */
function sameOriginPath(written: string, base: URL): string {
  let url: URL;
  try {
    url = new URL(written, base);
  } catch {
    throw new UsageError(`${JSON.stringify(written)} is not a URL or a path: nothing was sent`);
  }
  const prefix = base.pathname.replace(/\/+$/, '');
  const onApi =
    url.origin === base.origin &&
    url.username === '' &&
    url.password === '' &&
    (prefix === '' || url.pathname === prefix || url.pathname.startsWith(`${prefix}/`));
  if (!onApi)
    throw new UsageError(
      `${JSON.stringify(written)} is not on the configured API (${base.origin}${prefix}): energy api signs and sends only to it, nothing was sent`,
      { hint: 'give the path alone, e.g. /v1/balance; for another server, choose it with --base-url' },
    );
  return `${url.pathname.slice(prefix.length) || '/'}${url.search}`;
}

function splitPath(written: string): { path: string; query: string } {
  const full = written.startsWith('/') ? written : `/${written}`;
  // Sent as is: a space or a control character would be a different request on the wire than the one signed.
  if (!/^\/[\x21-\x7e]*$/.test(full))
    throw new UsageError(
      `the path must be printable ASCII without spaces (percent-encode the rest): ${JSON.stringify(written)}`,
    );
  const at = full.indexOf('?');
  return at < 0 ? { path: full, query: '' } : { path: full.slice(0, at), query: full.slice(at) };
}

/**
 * True for any spelling of the order endpoint a server might route there: percent-encoding, repeated
 * slashes, dot segments, letter case or a final slash do not get a POST around the journal.
 */
function placesOrders(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true; // Unreadable: treat as the order endpoint, which refuses anything but its plain spelling.
  }
  const segments: string[] = [];
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment.toLowerCase());
  }
  return `/${segments.join('/')}` === ORDERS;
}

/** POST /v1/energy/orders: journaled before it leaves, under the client_request_id its body must carry. */
async function sendOrder(deps: ApiDeps, body: Buffer | undefined): Promise<ApiAnswer> {
  const text = body?.toString('utf8');
  const requestId = text === undefined ? undefined : clientRequestIdOf(text);
  if (text === undefined || requestId === undefined || !Buffer.from(text, 'utf8').equals(body!))
    throw new UsageError(
      `POST ${ORDERS} needs a UTF-8 JSON body with a client_request_id: every order is journaled under it before it leaves; nothing was sent`,
      { hint: `e.g. energy api POST ${ORDERS} -f client_request_id="$(uuidgen)" -f address=… -F energy=65000 …` },
    );
  // The journal must be able to name and resend what it holds: a body that is not an order would be a
  // damaged record the moment it is written.
  if (orderBody(text) === undefined)
    throw new UsageError(
      `POST ${ORDERS} needs an order body: address (a string), energy and duration_hours (JSON integers), expected_total_trx (a decimal string); nothing was sent`,
      {
        hint: `e.g. energy api POST ${ORDERS} -f client_request_id="$(uuidgen)" -f address=… -F energy=65000 -F duration_hours=1 -f expected_total_trx=3.700000`,
      },
    );
  const client = await deps.client();
  const journal = await deps.journal();
  const { record, fresh } = await journal.begin(requestId, text);
  if (!fresh && record.body !== text)
    throw new ConflictError(
      `client_request_id ${requestId} was already journaled on this machine with another body: nothing was sent`,
      { hint: 'use a new client_request_id for a different order' },
    );
  const result = await sendJournaled({ client, journal, recoverCommand: deps.recoverCommand }, record);
  return { status: result.created ? 201 : 200, body: Buffer.from(result.text ?? JSON.stringify(result.order), 'utf8') };
}

function clientRequestIdOf(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const id = (value as Record<string, unknown>).client_request_id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** --input's bytes: standard input up to the cap, or a regular file (never a pipe or device: see bounded-read). */
async function readInput(input: string, deps: ApiDeps): Promise<Buffer> {
  const { readCappedStream, readRegularFile } = await import('../storage/bounded-read.js');
  try {
    return input === '-'
      ? await readCappedStream(deps.stdin, MAX_INPUT_BYTES, deps.interrupt)
      : await readRegularFile(input, MAX_INPUT_BYTES);
  } catch (error) {
    // An interrupt (Ctrl-C) goes on as it is: it says which signal ended the run.
    if (!(error instanceof BoundedReadError)) throw error;
    if (input === '-')
      throw new UsageError(`cannot use --input - (standard input): ${error.message}: nothing was sent`);
    throw new UsageError(`cannot use --input ${JSON.stringify(input)}: ${error.message}: nothing was sent`, {
      hint: 'give a regular file, or pipe the body in: `… | energy api POST <path> --input -`',
    });
  }
}
