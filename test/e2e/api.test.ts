/**
 * `energy api`: the bytes the server received (through a recording relay in front of the sandbox, which
 * verifies every signature), typed fields as JSON numbers, exit codes by status, and a POST to the order
 * endpoint journaled like any order.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type CliResult } from '../helpers/cli.js';
import { expectNoStackTrace, freshAddress } from '../helpers/e2e.js';
import { createWorld, json, type World } from '../helpers/world.js';
import { pendingIdsOf } from '../helpers/pending.js';

const ORDERS = '/v1/energy/orders';
const QUOTES = '/v1/energy/quotes';

interface Relayed {
  method: string;
  url: string;
  body: Buffer;
  /** The answer's body as the sandbox sent it. */
  answer: Buffer[];
}

let world: World;
let relay: Server;
let relayUrl: string;
const relayed: Relayed[] = [];

/** Forwards each request to the sandbox unchanged and remembers what it carried. */
function startRelay(target: URL): Promise<void> {
  relay = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const seen: Relayed = { method: req.method ?? '', url: req.url ?? '', body, answer: [] };
      relayed.push(seen);
      const out = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.on('data', (chunk: Buffer) => seen.answer.push(chunk));
          answer.pipe(res);
        },
      );
      out.end(body);
    });
  });
  return new Promise((resolve) =>
    relay.listen(0, '127.0.0.1', () => {
      relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  world = await createWorld();
  await startRelay(new URL(world.sandbox.url));
});
afterAll(async () => {
  await new Promise((resolve) => relay.close(resolve));
  await world.close();
});

let nextAddress = 8800;
const address = () => freshAddress((nextAddress += 1));
const viaRelay = (args: string[], input?: string) =>
  world.run(['api', ...args], { env: { ENERGY_BASE_URL: relayUrl }, ...(input !== undefined && { input }) });
const lastRelayed = () => relayed.at(-1)!;
const ordersTo = (target: string) => world.sandbox.orders().filter((o) => o.address === target);
/** A quote's fields as -f/-F words; `energyFlag` -f sends the energy as a string, which the server refuses. */
const quoteFields = (target: string, energyFlag: '-F' | '-f' = '-F') => [
  '-f',
  `address=${target}`,
  energyFlag,
  'energy=65000',
  '-F',
  'duration_hours=1',
];

describe('energy api', () => {
  it('sends -F numbers as JSON numbers and -f as strings, signed (the sandbox accepts it)', async () => {
    const target = address();
    const result = await viaRelay(['POST', QUOTES, ...quoteFields(target)]);
    expect(result.code, result.stderr).toBe(0);
    expect(lastRelayed().body.toString('utf8')).toBe(`{"address":"${target}","energy":65000,"duration_hours":1}`);
    expect(json(result)).toMatchObject({ address: target, energy: 65000, total_trx: '3.700000' });
  });

  it('-f sends 65000 as a string, which the server refuses: exit 2, its body on stdout, one line on stderr', async () => {
    const target = address();
    const result = await viaRelay(['POST', QUOTES, ...quoteFields(target, '-f')]);
    expect(lastRelayed().body.toString('utf8')).toBe(`{"address":"${target}","energy":"65000","duration_hours":1}`);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/INVALID_INTEGER|integer/);
    expect(result.stderr).toMatch(/^energy: error: POST \/v1\/energy\/quotes failed: VALIDATION_FAILED/);
    expect(json(result)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expectNoStackTrace(result);
  });

  it('copies a -F number digit for digit, never through a float', async () => {
    await viaRelay([
      'POST',
      QUOTES,
      '-F',
      'energy=123456789012345678901',
      '-F',
      'x=0.1',
      '-F',
      'y=true',
      '-F',
      'z=null',
    ]);
    expect(lastRelayed().body.toString('utf8')).toBe('{"energy":123456789012345678901,"x":0.1,"y":true,"z":null}');
  });

  it('a full URL on the configured API is taken as its path (as gh api takes one)', async () => {
    const result = await viaRelay(['GET', `${relayUrl}${ORDERS}?limit=1`]);
    expect(result.code, result.stderr).toBe(0);
    expect(lastRelayed().url).toBe(`${ORDERS}?limit=1`);
    expect(JSON.parse(result.stdout)).toHaveProperty('items');
  });

  it.each([
    ['another server', 'http://api.other.invalid/v1/balance'],
    ['another scheme of the same host', () => relayUrl.replace('http:', 'https:') + '/v1/balance'],
    ['a scheme-relative URL', '//api.other.invalid/v1/balance'],
  ])('a URL on %s is refused (exit 2) before anything is signed or sent', async (_what, url) => {
    const target = typeof url === 'string' ? url : url();
    const before = relayed.length;
    const result = await viaRelay(['GET', target]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `energy: error: ${JSON.stringify(target)} is not on the configured API (${relayUrl}): energy api signs and sends only to it, nothing was sent`,
    );
    expect(relayed.length).toBe(before);
    expectNoStackTrace(result);
  });

  it('puts GET fields in the query, and prints the body exactly as received', async () => {
    const result = await viaRelay(['GET', `${ORDERS}?limit=2`, '-F', 'x=1', '-f', 'y=a b']);
    expect(result.code, result.stderr).toBe(0);
    expect(lastRelayed().url).toBe(`${ORDERS}?limit=2&x=1&y=a%20b`);
    expect(lastRelayed().body.length).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveProperty('items');
  });

  it('sends --input bytes unchanged (from stdin and from a file)', async () => {
    const body = `{ "address" : "${address()}",\n "energy": 65000, "duration_hours": 1 }`;
    const piped = await viaRelay(['POST', QUOTES, '--input', '-'], body);
    expect(piped.code, piped.stderr).toBe(0);
    expect(lastRelayed().body.toString('utf8')).toBe(body);
    const file = join(world.configDir, '..', 'quote.json');
    writeFileSync(file, body);
    const fromFile = await viaRelay(['POST', QUOTES, '--input', file]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(lastRelayed().body.toString('utf8')).toBe(body);
  });

  it('exits by status with the error body on stdout, as gh api: 404 is 4, 401 is 3', async () => {
    const unknown = await viaRelay(['GET', `${ORDERS}/3f0c9b1e-6a7d-4c2e-9f1a-2b3c4d5e6f70`]);
    expect(unknown.code).toBe(4);
    // `energy api GET …/<unknown> | jq .code` prints "ORDER_NOT_FOUND": the bytes as the server sent them.
    expect(unknown.stdout).toBe(Buffer.concat(lastRelayed().answer).toString('utf8'));
    expect(json(unknown)).toMatchObject({ status: 404, code: 'ORDER_NOT_FOUND' });
    expect(unknown.stderr).toMatch(/^energy: error: GET \/v1\/energy\/orders\/\S+ failed: ORDER_NOT_FOUND/);
    const asJson = await viaRelay(['GET', `${ORDERS}/3f0c9b1e-6a7d-4c2e-9f1a-2b3c4d5e6f70`, '--json']);
    expect(json(asJson)).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { exit_code: 4, problem: { code: 'ORDER_NOT_FOUND' } } });
    const wrong = await world.run(['api', 'GET', '/v1/balance'], {
      env: { ENERGY_BASE_URL: relayUrl, ENERGY_API_SECRET: 'not-the-secret-at-all' },
    });
    expect(wrong.code).toBe(3);
    expect(json(wrong)).toMatchObject({ status: 401 });
    expect(wrong.stderr).not.toContain('not-the-secret-at-all');
  });

  it('an unknown method is 2 with nothing sent, and nothing on stdout', async () => {
    const before = relayed.length;
    const refused = await viaRelay(['DELETE', '/v1/balance']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(relayed.length).toBe(before);
  });
});

/** The CLI with standard input from `stdinFd` (e.g. /dev/zero), killed if it is still running after 15 s. */
function runWithStdin(args: string[], stdinFd: number | 'pipe'): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [BIN, 'api', ...args], {
    env: { ...world.env, ENERGY_BASE_URL: relayUrl },
    stdio: [stdinFd, 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const result = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve({ code: code ?? (signal === 'SIGKILL' ? -9 : -1), stdout, stderr });
    }),
  );
  return { child, result };
}

describe('energy api --input: inputs that never end', () => {
  it('stdin from /dev/zero stops at the 1 MiB cap: exit 2, nothing sent', async () => {
    const zero = openSync('/dev/zero', 'r');
    const before = relayed.length;
    try {
      const result = await runWithStdin(['POST', QUOTES, '--input', '-'], zero).result;
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('cannot use --input - (standard input): larger than 1 MiB: nothing was sent');
    } finally {
      closeSync(zero);
    }
    expect(relayed.length).toBe(before);
  });

  it('a named pipe with no writer, or a device, is refused at once: exit 2, nothing sent', async () => {
    const fifo = join(world.configDir, '..', 'input.fifo');
    execFileSync('mkfifo', [fifo]);
    const before = relayed.length;
    for (const [path, kind] of [
      [fifo, 'a named pipe'],
      ['/dev/zero', 'a device'],
      [join(world.configDir, '..'), 'a folder'],
    ] as const) {
      const result = await runWithStdin(['POST', QUOTES, '--input', path], 'pipe').result;
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${kind}, not a regular file: nothing was sent`);
    }
    const large = join(world.configDir, '..', 'large.json');
    writeFileSync(large, Buffer.alloc(1_048_577, 0x20));
    const tooLarge = await viaRelay(['POST', QUOTES, '--input', large]);
    expect(tooLarge.code).toBe(2);
    expect(tooLarge.stderr).toContain('large.json": larger than 1 MiB: nothing was sent');
    const missing = await viaRelay(['POST', QUOTES, '--input', join(world.configDir, 'absent.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('absent.json": no such file: nothing was sent');
    expect(relayed.length).toBe(before);
  });

  it('SIGTERM ends a read of a silent stdin at once, exit 143, nothing sent', async () => {
    const before = relayed.length;
    const running = runWithStdin(['POST', QUOTES, '--input', '-'], 'pipe');
    // 256 KiB is more than a pipe holds: the write completes only once the process is up and reading.
    await new Promise((resolve) => running.child.stdin!.write(Buffer.alloc(262_144, 0x20), resolve));
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(143);
    // Ended by the read itself, not by the 5 s backstop's forced exit.
    expect(result.stderr).not.toContain('stopping now');
    expect(relayed.length).toBe(before);
  });
});

describe('energy api POST /v1/energy/orders', () => {
  const orderArgs = (target: string, id: string) => [
    'POST',
    ORDERS,
    '-f',
    `client_request_id=${id}`,
    ...quoteFields(target),
    '-f',
    'expected_total_trx=3.700000',
  ];

  it('is refused locally without a client_request_id (exit 2), under any spelling of the path', async () => {
    const target = address();
    const posts = world.sandbox.requestCount(ORDERS);
    for (const path of [
      ORDERS,
      `${ORDERS}/`,
      '/v1//energy/orders',
      '/v1/energy/./orders',
      '/v1/energy/%6frders',
      '/V1/Energy/Orders',
    ]) {
      const result = await viaRelay(['POST', path, ...quoteFields(target)]);
      expect(result.code, path).toBe(2);
    }
    expect(world.sandbox.requestCount(ORDERS)).toBe(posts);
    expect(ordersTo(target)).toHaveLength(0);
  });

  it('refuses another spelling of the order endpoint, or a query on it, even with a client_request_id', async () => {
    const target = address();
    const journaled = await world.run(['order', 'pending', '--json']);
    const posts = world.sandbox.requestCount(ORDERS);
    for (const path of ['/v1//energy/orders', '/v1/energy/x/../orders', `${ORDERS}?dry=1`]) {
      const result = await viaRelay(
        orderArgs(target, `spelled-${target}`).map((word) => (word === ORDERS ? path : word)),
      );
      expect(result.code, path).toBe(2);
      expect(result.stderr).toContain(`write the order endpoint as POST ${ORDERS}, with no query`);
    }
    expect(world.sandbox.requestCount(ORDERS)).toBe(posts);
    expect((await world.run(['order', 'pending', '--json'])).stdout).toBe(journaled.stdout);
  });

  it('places one order, journaled and settled; a second run with the same id gets the same order back', async () => {
    const target = address();
    const id = `api-${target}`;
    const first = await viaRelay(orderArgs(target, id));
    expect(first.code, first.stderr).toBe(0);
    const again = await viaRelay(orderArgs(target, id));
    expect(again.code, again.stderr).toBe(0);
    expect(json(again).id).toBe(json(first).id);
    expect(ordersTo(target)).toHaveLength(1);
    const pending = await world.run(['order', 'pending', '--json']);
    expect(pendingIdsOf(pending)).not.toContain(id);
  });

  it('refuses an id journaled with another body (exit 5), sending nothing: never the old body in its place', async () => {
    const target = address();
    const id = `api-reused-${target}`;
    const first = await viaRelay(orderArgs(target, id));
    expect(first.code, first.stderr).toBe(0);
    const posts = relayed.filter((seen) => seen.url === ORDERS).length;
    const bigger = orderArgs(target, id).map((word) => (word === 'energy=65000' ? 'energy=130000' : word));
    const again = await viaRelay(bigger);
    expect(again.code, again.stderr).toBe(5);
    expect(again.stderr).toContain(
      `client_request_id ${id} was already journaled on this machine with another body: nothing was sent`,
    );
    expect(again.stdout).toBe('');
    expect(relayed.filter((seen) => seen.url === ORDERS).length).toBe(posts);
    expect(ordersTo(target).map((order) => order.energy)).toEqual([65000]);
  });

  it("a refused order: the server's body on stdout, exit 5, the record settled (not pending)", async () => {
    const target = address();
    const id = `api-refused-${target}`;
    const args = orderArgs(target, id).map((word) =>
      word === 'expected_total_trx=3.700000' ? 'expected_total_trx=1.000000' : word,
    );
    const result = await viaRelay(args);
    expect(result.code, result.stderr).toBe(5);
    expect(json(result)).toMatchObject({ status: 409, code: 'PRICE_CHANGED' });
    expect(ordersTo(target)).toHaveLength(0);
    expect(pendingIdsOf(await world.run(['order', 'pending', '--json']))).not.toContain(id);
  });

  it('killed in flight: the record is pending, and `order pending` shows it', async () => {
    const target = address();
    const id = `api-killed-${target}`;
    world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: ORDERS } });
    try {
      const running = world.spawn(['api', ...orderArgs(target, id)]);
      const deadline = Date.now() + 10_000;
      while (ordersTo(target).length === 0 && Date.now() < deadline) await sleep(20);
      running.child.kill('SIGKILL');
      await running.result;
    } finally {
      world.sandbox.clearFaults();
    }
    expect(ordersTo(target)).toHaveLength(1);
    const pending = await world.run(['order', 'pending', '--json']);
    expect(pending.code, pending.stderr).toBe(0);
    expect(pendingIdsOf(pending)).toContain(id);
  });
});
