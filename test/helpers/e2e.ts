/** Small shared pieces for the e2e suites: fresh addresses, a loopback port nobody listens on, state probes. */
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { encodeTronAddress } from '../../src/domain/address.js';
import type { BalanceResponse } from '../../src/client/types.js';
import { signRequest } from '../../src/signing/index.js';
import type { CliResult, RunningCli } from './cli.js';
import type { World } from './world.js';

/**
 * A valid TRON address that no other test uses: the sandbox charges activation until an address has had a
 * delivery, so each test that relies on a price gets its own address.
 */
export function freshAddress(n: number): string {
  const id = Buffer.alloc(20, 0x5a);
  id.writeUInt32BE(n, 0);
  return encodeTronAddress(Buffer.concat([Buffer.from([0x41]), id]));
}

/**
 * A loopback port nobody listens on: bound on port 0 (the system picks a free one), then closed. Never a
 * fixed port such as 1 or 9: a root process may listen there, and did.
 */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** `http://127.0.0.1:<a closed port>`: a base URL that refuses connections. */
export async function deadUrl(scheme: 'http' | 'https' = 'http'): Promise<string> {
  return `${scheme}://127.0.0.1:${await closedPort()}`;
}

/** A stack frame line as Node prints it. */
export const STACK_FRAME = /^\s+at /m;

export function expectNoStackTrace(result: CliResult): void {
  expect(result.stderr).not.toMatch(STACK_FRAME);
  expect(result.stdout).not.toMatch(STACK_FRAME);
}

/**
 * One signed request straight to the sandbox, over node:http and the signing module only (not the CLI's client),
 * for arranging and inspecting state without a spawn. Counts as one request in the sandbox.
 */
export function signedCall(
  world: World,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
): Promise<{ status: number; json: any }> {
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  const headers: Record<string, string> = {
    ...signRequest({
      method,
      path,
      query: '',
      body: bytes,
      timestamp: Math.floor(Date.now() / 1000),
      apiKey: world.sandbox.apiKey,
      apiSecret: world.sandbox.apiSecret,
    }),
    ...(bytes !== undefined && { 'content-type': 'application/json' }),
  };
  return new Promise((resolve, reject) => {
    const req = request(`${world.sandbox.url}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

/** Reads the balance straight from the sandbox, without spawning the CLI. */
export async function balanceOf(world: World): Promise<BalanceResponse> {
  const { status, json } = await signedCall(world, 'GET', '/v1/balance');
  if (status !== 200) throw new Error(`GET /v1/balance answered ${status}`);
  return json as BalanceResponse;
}

/** Waits until every order in the sandbox has a final delivery, so that held amounts stop moving. */
export async function allDelivered(world: World, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (world.sandbox.orders().some((order) => !order.delivery_final)) {
    if (Date.now() > deadline) throw new Error('sandbox orders were not delivered in time');
    await sleep(50);
  }
}

/** What `until` waits on: a condition, or a value that is there once it is not undefined, null or false. */
export type Probe<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

/**
 * Waits until `probe()` holds (true, or a value other than undefined, null and false, which it returns),
 * polling every 20 ms, or fails after `timeoutMs` naming `what`: how a test waits for another process, a
 * server or the sandbox's timers, never a fixed sleep. The one such loop of the suite.
 */
export async function until<T>(what: string, probe: Probe<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}

/** A running service's --metrics base URL (`http://127.0.0.1:port`), once its note says it. */
export function metricsUrl(running: RunningCli, timeoutMs = 20_000): Promise<string> {
  return until(
    'the metrics URL is announced',
    () => /metrics at (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(running.output().stderr)?.[1],
    timeoutMs,
  );
}

/** A plain GET over a fresh socket (metrics, health): the status and the body as text. */
export function httpGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** A service's cycle as `ensure --every --json` prints it: one NDJSON line on stdout a cycle. */
export interface ServiceCycle {
  cycle: number;
  items: { address: string; reason: string }[];
  error?: unknown;
}

/** The cycles a running service has printed so far, in order. */
export function serviceCycles(service: RunningCli): ServiceCycle[] {
  return service
    .output()
    .stdout.split('\n')
    .filter((line) => line.startsWith('{"cycle":'))
    .map((line) => JSON.parse(line) as ServiceCycle);
}
