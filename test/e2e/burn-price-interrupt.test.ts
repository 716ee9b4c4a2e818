/**
 * Ctrl-C while the TRON node is asked the price of burning energy stops the command (exit 130): it is not a
 * node that "cannot say the price" (burn_trx null and the command's answer anyway), and ensure buys nothing
 * after it. Spawned for real, with a real SIGINT; the TRON node is a node:http server in the test that hands
 * every call to the sandbox but holds getchainparameters.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();
let node: Server;
let nodeUrl: string;
/** getchainparameters calls held unanswered. */
const held: ServerResponse[] = [];

function forward(incoming: IncomingMessage, response: ServerResponse): void {
  const target = new URL(incoming.url ?? '/', world.sandbox.url);
  const upstream = request(target, { method: incoming.method, headers: incoming.headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  incoming.pipe(upstream);
}

beforeAll(async () => {
  node = createServer((incoming, response) => {
    if (incoming.url?.startsWith('/wallet/getchainparameters')) {
      incoming.resume();
      held.push(response);
      return;
    }
    forward(incoming, response);
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  nodeUrl = `http://127.0.0.1:${(node.address() as { port: number }).port}`;
});
afterAll(async () => {
  node.closeAllConnections();
  await new Promise((resolve) => node.close(resolve));
});

describe('Ctrl-C while the price of burning is read', () => {
  it('quote: exit 130, no quote printed, not "price unknown"', async () => {
    const before = held.length;
    const running = world.spawn(['quote', freshAddress(35_001), '--energy', '65000', '--hours', '1', '--json'], {
      env: { ENERGY_TRON_NODE: nodeUrl },
    });
    await until('the node is asked the price', () => held.length > before);
    running.child.kill('SIGINT');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(130);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(/price of burning energy is unknown/);
  });

  it('ensure --yes: exit 130, and no order placed', async () => {
    const address = freshAddress(35_002);
    const before = held.length;
    const posts = world.sandbox.requestCount('/v1/energy/orders', 'POST');
    const running = world.spawn(['ensure', address, '--energy', '65000', '--hours', '1', '--yes', '--json'], {
      env: { ENERGY_TRON_NODE: nodeUrl },
    });
    await until('the node is asked the price', () => held.length > before);
    running.child.kill('SIGINT');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(130);
    expect(world.sandbox.requestCount('/v1/energy/orders', 'POST')).toBe(posts);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(0);
    expect(result.stderr).not.toMatch(/price of burning energy is unknown/);
  });
});
