/**
 * A base URL with a path prefix, end to end: the CLI talks to https://host/api/energy-style URL, a reverse
 * proxy in front of the sandbox strips the prefix (as nginx `proxy_pass …/;`, Traefik StripPrefix or Kong
 * do), and the sandbox checks each signature with its own canonical string over the path it receives.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { freshAddress } from '../helpers/e2e.js';
import { createWorld, json, type World } from '../helpers/world.js';

const PREFIX = '/api/energy';

let world: World;
let proxy: Server;
let proxyUrl: string;
/** Method and path of every request that reached the proxy. */
const received: string[] = [];

beforeAll(async () => {
  world = await createWorld({ deliverAfterMs: 60_000 });
  const upstream = new URL(world.sandbox.url);
  proxy = createServer((req, res) => {
    const url = req.url ?? '/';
    received.push(`${req.method} ${url}`);
    if (!url.startsWith(`${PREFIX}/`)) {
      res.writeHead(404).end();
      return;
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: url.slice(PREFIX.length),
        headers: { ...req.headers, host: upstream.host },
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${PREFIX}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await world.close();
});

const run = (args: string[]) => world.run(args, { env: { ENERGY_BASE_URL: proxyUrl } });

describe('a base URL with a path prefix behind a prefix-stripping proxy', () => {
  it('reads the balance: sent to the prefixed path, accepted by the sandbox', async () => {
    const before = world.sandbox.requestCount('/v1/balance');
    const result = await run(['balance', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(json(result)).toMatchObject({ status: 'active' });
    expect(received).toContain(`GET ${PREFIX}/v1/balance`);
    expect(world.sandbox.requestCount('/v1/balance') - before).toBe(1);
  });

  it('places an order (a signed body) and lists it (a signed query)', async () => {
    const address = freshAddress(16_700);
    const created = await run(['order', 'create', address, '--energy', '65000', '--hours', '1', '--yes', '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(received).toContain(`POST ${PREFIX}/v1/energy/orders`);
    const orders = world.sandbox.orders().filter((order) => order.address === address);
    expect(orders).toHaveLength(1);
    expect(json<Order>(created).id).toBe(orders[0]!.id);

    const listed = await run(['order', 'list', '--limit', '5', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(received).toContain(`GET ${PREFIX}/v1/energy/orders?limit=5`);
    expect(json<{ items: Order[] }>(listed).items.map((order) => order.id)).toContain(orders[0]!.id);
  });
});
