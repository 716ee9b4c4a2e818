/**
 * One request, start to finish: faults first (they stand for a proxy or a network in front of the service),
 * then route, body, authentication, rate limit, media type, JSON, and the handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxCore } from './core.js';
import { withExtraFields } from './foreign-orders.js';
import { readBody, type BodyOutcome } from './read-body.js';
import { problemReply, send, tooManyRequests, type Reply } from './reply.js';
import { matchRoute } from './routes.js';
import type { Fault } from './types.js';
import { verifyAuth } from './verify-auth.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

const FAULT_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'AUTH_SIGNATURE',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
};

function faultReply(fault: Extract<Fault, { kind: 'status' }>): Reply {
  const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter };
  const code = FAULT_CODES[fault.status] ?? `HTTP_${fault.status}`;
  return problemReply(fault.status, code, `Injected fault: status ${fault.status}.`, { headers });
}

function sleep(core: SandboxCore, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      core.timers.delete(timer);
      resolve();
    }, ms);
    core.timers.add(timer);
  });
}

export async function handleRequest(req: IncomingMessage, res: ServerResponse, core: SandboxCore): Promise<void> {
  const rawUrl = req.url ?? '/';
  const mark = rawUrl.indexOf('?');
  const path = mark === -1 ? rawUrl : rawUrl.slice(0, mark);
  const query = mark === -1 ? '' : rawUrl.slice(mark);
  const method = req.method ?? 'GET';
  core.requestsByPath.set(path, (core.requestsByPath.get(path) ?? 0) + 1);
  const byMethod = `${method} ${path}`;
  core.requestsByMethod.set(byMethod, (core.requestsByMethod.get(byMethod) ?? 0) + 1);

  const fault = core.faults.take(method, path);
  if (fault?.kind === 'status') return send(res, faultReply(fault));
  if (fault?.kind === 'raw') {
    return send(res, { status: fault.status, headers: { 'content-type': fault.contentType }, body: fault.body });
  }
  if (fault?.kind === 'drop') {
    req.socket.destroy();
    return;
  }
  // Reading starts now so that a client that gives up during a delay has still sent its whole request.
  const body = readBody(req, core.options.bodyLimitBytes);
  if (fault?.kind === 'delay') await sleep(core, fault.ms);
  if (fault?.kind === 'hold') {
    await new Promise<void>((resolve) => core.held.add(resolve));
    if (req.socket.destroyed) return;
  }

  const reply = await answer(req, core, { method, path, query, body });
  if (reply === undefined || req.socket.destroyed) return;
  // The state has changed (e.g. the order is committed); the client just never hears about it.
  if (fault?.kind === 'drop-after-commit') {
    req.socket.destroy();
    return;
  }
  // Committed too, but the answer waits: the moment a killed client leaves an order it never heard about.
  if (fault?.kind === 'hold-after-commit') {
    // No answer at all: the socket ends when the client goes away or the sandbox closes.
    if (fault.ms === undefined) return;
    await sleep(core, fault.ms);
    if (req.socket.destroyed) return;
  }
  send(res, reply);
}

interface Received {
  method: string;
  path: string;
  query: string;
  body: Promise<BodyOutcome>;
}

/** The reply to a request, or undefined when the client went away before its body arrived. */
async function answer(req: IncomingMessage, core: SandboxCore, received: Received): Promise<Reply | undefined> {
  const { method, path, query } = received;
  const match = matchRoute(method, path);
  if (match.kind === 'unknown') return problemReply(404, 'NOT_FOUND', `No resource at ${path}.`);
  if (match.kind === 'wrong-method') {
    return problemReply(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}.`, {
      headers: { allow: match.allowed.join(', ') },
    });
  }
  const { route, id } = match;
  const remote = req.socket.remoteAddress ?? 'unknown';
  const lockout = route.auth ? (core.authFailures?.retryAfter(remote) ?? 0) : 0;
  if (lockout > 0) {
    return tooManyRequests('TOO_MANY_AUTH_FAILURES', 'Too many failed authentications from this address.', lockout);
  }

  // The body is needed before authentication: the signature covers its hash.
  const read = await received.body;
  if (read.kind === 'aborted') return undefined;
  if (read.kind === 'too-large') {
    const reply = problemReply(
      413,
      'PAYLOAD_TOO_LARGE',
      `The body is larger than ${core.options.bodyLimitBytes} bytes.`,
    );
    // The rest of the body is discarded, not parsed: this connection cannot carry another request.
    reply.headers.connection = 'close';
    return reply;
  }

  let limiterKey = `address:${remote}`;
  if (route.auth) {
    const auth = verifyAuth({
      method,
      path,
      query,
      headers: req.headers,
      body: read.body,
      serverSeconds: core.clock.unixSeconds(),
      apiKey: core.options.apiKey,
      apiSecret: core.options.apiSecret,
    });
    if (!auth.ok) {
      core.authFailures?.record(remote);
      return auth.reply;
    }
    limiterKey = `key:${auth.apiKey}`;
  }
  const wait = core.limiter?.take(limiterKey) ?? 0;
  if (wait > 0) return tooManyRequests('RATE_LIMITED', `Too many requests; retry in ${wait} s.`, wait);

  let body: unknown;
  if (route.json) {
    const mediaType = (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
    if (mediaType !== 'application/json') {
      return problemReply(415, 'UNSUPPORTED_MEDIA_TYPE', 'The body must be sent as Content-Type: application/json.');
    }
    try {
      body = JSON.parse(UTF8.decode(read.body));
    } catch {
      return problemReply(400, 'MALFORMED_JSON', 'The body is not valid UTF-8 JSON.');
    }
  }
  const nowMs = core.clock.nowMs();
  core.book.settle(nowMs);
  return withExtraFields(
    route.handler({ core, body, query, id, nowMs, headers: req.headers }),
    core.options.extraFields,
  );
}
