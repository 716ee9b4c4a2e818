/** Responses as values, so that a fault can decide to drop one after the state has changed. */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { ProblemDetails, ProblemError } from '../domain/errors.js';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const PROBLEM_TYPE_BASE = 'https://sandbox.energy.invalid/problems/';

export function jsonReply(status: number, value: unknown): Reply {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

export interface ProblemExtras {
  field?: string | null;
  errors?: ProblemError[];
  headers?: Record<string, string>;
}

export function problemReply(status: number, code: string, detail: string, extras: ProblemExtras = {}): Reply {
  const problem: ProblemDetails = {
    type: PROBLEM_TYPE_BASE + code.toLowerCase().replaceAll('_', '-'),
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
  };
  if (extras.field !== undefined) problem.field = extras.field;
  if (extras.errors !== undefined) problem.errors = extras.errors;
  return {
    status,
    headers: { 'content-type': 'application/problem+json', ...extras.headers },
    body: JSON.stringify(problem),
  };
}

/** 400 listing every field problem at once; `field` names the first one so single-field clients still see it. */
export function validationReply(errors: ProblemError[]): Reply {
  const noun = errors.length === 1 ? 'problem' : 'problems';
  return problemReply(
    400,
    'VALIDATION_FAILED',
    `${errors.length} ${noun}: ${errors.map((e) => e.message).join('; ')}`,
    {
      field: errors[0]?.field ?? null,
      errors,
    },
  );
}

export function tooManyRequests(code: string, detail: string, retryAfterSeconds: number): Reply {
  return problemReply(429, code, detail, { headers: { 'retry-after': String(retryAfterSeconds) } });
}

/** Writes a reply with an exact Content-Length (no chunking), so a truncated body is visible as such. */
export function send(res: ServerResponse, reply: Reply): void {
  const body = Buffer.from(reply.body, 'utf8');
  res.writeHead(reply.status, { ...reply.headers, 'content-length': String(body.length) });
  res.end(body);
}
