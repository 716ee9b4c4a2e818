/**
 * Turns a TRON node's HTTP answer into checked data or a typed error. Nodes differ in the content type
 * they send, so the body itself is the test: it must parse as a JSON object of the expected shape. A
 * java-tron `{"Error": "…"}` body (sent with HTTP 200) is the node refusing the request, reported as such.
 */
import type { HttpResponse } from '../client/http.js';
import { type Check } from '../client/shape.js';
import { ShapeMismatch } from '../domain/errors.js';
import { AuthError, ResponseShapeError, type CliError } from '../domain/errors.js';
import { RateLimitedError, TronNodeError } from '../domain/cli-errors.js';
import { printable } from '../domain/printable.js';
import { readableMessage } from './tron-schemas.js';

export const TRON_KEY_HINT =
  'public nodes limit requests without a key: set one with `energy config set tron-api-key` (or ENERGY_TRON_API_KEY), or use your own node with --tron-node';
/** Where the API key sent to the node came from, and how to set it there again (config/credentials.ts). */
export interface TronKeySource {
  where: string;
  fix: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const value = (body as Record<string, unknown>).Error ?? (body as Record<string, unknown>).error;
  return typeof value === 'string' ? readableMessage(value) : undefined;
}

function notJson(text: string): string {
  const start = text.trimStart().slice(0, 15).toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html'))
    return 'an HTML page, not JSON (a proxy, a gateway, or not a TRON node?)';
  return text.trim() === '' ? 'an empty body, not JSON' : 'a body that is not JSON (truncated?)';
}

/** `label` names the exchange, e.g. `TRON node https://api.trongrid.io POST /wallet/getaccount`. */
export function decodeTronSuccess<T>(response: HttpResponse, check: Check<T>, label: string): T {
  const body = parseJson(response.text);
  if (body === undefined)
    throw new ResponseShapeError(`${label} answered HTTP ${response.status} with ${notJson(response.text)}`);
  const error = errorText(body);
  if (error !== undefined) throw new TronNodeError(`${label}: the node answered with an error: ${error}`);
  try {
    return check(body, '');
  } catch (failure) {
    if (!(failure instanceof ShapeMismatch)) throw failure;
    throw new ResponseShapeError(
      `${label} answered HTTP ${response.status} with a body that is not what a TRON node sends: ${failure.message}`,
    );
  }
}

/** The error for a non-2xx answer the retries did not get past. */
export function decodeTronFailure(
  response: HttpResponse,
  label: string,
  sentKey: boolean,
  keySource?: TronKeySource,
): CliError {
  const body = parseJson(response.text);
  const said =
    errorText(body) ??
    (body === undefined && response.text.trim() !== '' && !notJson(response.text).startsWith('an HTML')
      ? printable(response.text)
      : undefined);
  const message = `${label} answered HTTP ${response.status}${said === undefined ? '' : `: ${said}`}`;
  const { status } = response;
  // Hosted nodes answer 429, or 403 with a text body, when a caller without a key (or over its plan) asks too often.
  const key = keySource === undefined ? 'the API key' : `the API key from ${keySource.where}`;
  if (status === 429 || status === 403)
    return new RateLimitedError(message, {
      hint: sentKey
        ? `the node refuses or limits ${key}: check the key and its plan's request rate, or use your own node with --tron-node`
        : TRON_KEY_HINT,
    });
  if (status === 401)
    return new AuthError(message, {
      hint: sentKey
        ? `the node refused ${key}: ${keySource?.fix ?? 'check it'}`
        : 'the node asks for an API key: set one with `energy config set tron-api-key` (or ENERGY_TRON_API_KEY)',
    });
  if (status === 404 || status === 405) {
    return new ResponseShapeError(message, {
      hint: 'is --tron-node (or tron-node) the HTTP API of a TRON full node, e.g. https://api.trongrid.io?',
    });
  }
  return new ResponseShapeError(message);
}
