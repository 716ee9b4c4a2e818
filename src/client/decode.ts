/**
 * Turns a complete HTTP response into checked data or a typed error: media type, JSON syntax, Problem
 * Details, then the operation's shape check. Nothing is used or printed before it has passed here.
 */
import { ApiError, AuthError, ResponseShapeError, type ProblemDetails } from '../domain/errors.js';
import type { HttpResponse } from './http.js';
import { clause, printable } from '../domain/printable.js';
import { parseProblem } from './schemas.js';
import { type Check } from './shape.js';
import { ShapeMismatch } from '../domain/errors.js';

export const SIGNATURE_HINT =
  'check the API key and secret (energy config list), the base URL, and the clock (energy time); see "Troubleshooting signature errors" in the manual (docs/troubleshooting.md)';

function headerValue(headers: HttpResponse['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function mediaType(response: HttpResponse): string {
  return (headerValue(response.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

export function retryAfterHeader(response: HttpResponse): string | undefined {
  return headerValue(response.headers, 'retry-after');
}

/**
 * Parses and checks a 2xx body; `label` names the exchange in messages, e.g. `GET /v1/balance`;
 * `outcomeUncertain` goes on its errors.
 */
export function decodeSuccess<T>(response: HttpResponse, check: Check<T>, label: string, outcomeUncertain = false): T {
  const uncertain = { outcomeUncertain };
  const type = mediaType(response);
  if (type !== 'application/json') {
    throw new ResponseShapeError(
      `${label} answered HTTP ${response.status} with ${type === '' ? 'no content type' : type}, not application/json${sniff(response.text)}`,
      uncertain,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(response.text);
  } catch {
    throw new ResponseShapeError(
      `${label} answered HTTP ${response.status} with a body that is not valid JSON (truncated?)`,
      uncertain,
    );
  }
  try {
    return check(data, '');
  } catch (error) {
    if (!(error instanceof ShapeMismatch)) throw error;
    throw new ResponseShapeError(
      `${label} answered HTTP ${response.status} with a body that breaks the spec: ${error.message}`,
      uncertain,
    );
  }
}

/**
 * The body of the answer each failure error was made from, as received: `energy api` prints it on stdout,
 * as `gh api` prints a 404's JSON. Kept beside the error rather than on it, so that no other path carries
 * (or prints) a body it never asked for; gone with the error.
 */
const failureBodies = new WeakMap<object, Buffer>();

/** The body of the non-2xx answer behind `error` (or behind its causes), if an answer was received. */
export function failureBody(error: unknown): Buffer | undefined {
  for (let at = error; typeof at === 'object' && at !== null; at = (at as { cause?: unknown }).cause) {
    const body = failureBodies.get(at);
    if (body !== undefined) return body;
  }
  return undefined;
}

/** Builds the typed error for a non-2xx response, keeping the Problem Details body when there is one. */
export function decodeFailure(
  response: HttpResponse,
  label: string,
  retryAfterSeconds?: number,
  note?: string,
  outcomeUncertain = false,
): ApiError | AuthError {
  const problem = readProblem(response);
  const summary = problem === undefined ? `HTTP ${response.status}` : describeProblem(problem);
  // The server's detail often ends in a full stop: `…slow down; the server asks…`, not `…slow down.; the…`.
  const message = `${label} failed: ${note === undefined ? summary : `${clause(summary)}; ${note}`}`;
  const error =
    response.status === 401
      ? new AuthError(message, { hint: SIGNATURE_HINT, status: 401, outcomeUncertain, ...(problem && { problem }) })
      : new ApiError(response.status, message, problem, {
          outcomeUncertain,
          ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
        });
  failureBodies.set(error, response.bytes ?? Buffer.from(response.text, 'utf8'));
  return error;
}

function readProblem(response: HttpResponse): ProblemDetails | undefined {
  const type = mediaType(response);
  if (type !== 'application/problem+json' && type !== 'application/json') return undefined;
  try {
    return parseProblem(JSON.parse(response.text));
  } catch {
    return undefined;
  }
}

/** The server's words, escaped and cut (they reach a terminal), each said once. */
function describeProblem(problem: ProblemDetails): string {
  const detail = problem.detail || problem.title;
  const fields = (problem.errors ?? [])
    // The detail often already lists the fields' messages: say each once.
    .filter((e) => !detail.includes(e.message))
    // Joined by `; `: a field message's own full stop would make `…".; …`.
    .map((e) => printable(clause(e.field === null ? e.message : `${e.field}: ${e.message}`), 200))
    .filter((text, index, all) => all.indexOf(text) === index);
  const head = `${printable(problem.code, 60)}: ${printable(detail, 300)}`;
  return fields.length === 0 ? head : `${head} (${fields.join('; ')})`;
}

/** A hint of what came instead of JSON, e.g. an HTML error page from a proxy. */
function sniff(text: string): string {
  const start = text.trimStart().slice(0, 15).toLowerCase();
  return start.startsWith('<!doctype html') || start.startsWith('<html') ? ' (an HTML page: a proxy or gateway?)' : '';
}
