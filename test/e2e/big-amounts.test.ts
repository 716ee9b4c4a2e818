/**
 * Every path that reads, compares, sums or prints an amount, with amounts above 2^53 micro-TRX, where a
 * float cannot tell 90071992547.409931 from 90071992547.409930. Effects are counted at the server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../src/client/types.js';
import { runInProcess } from '../helpers/in-process.js';
import { jsonReply, startScriptedServer, type Handler, type ScriptedServer } from '../helpers/http-server.js';
import { sampleOrder } from '../helpers/sample-order.js';
import { allDelivered, balanceOf, freshAddress } from '../helpers/e2e.js';
import { ADDRESS, createWorld, type World } from '../helpers/world.js';

const BIG = '90071992547.409931';
const BIG_MINUS_ONE = '90071992547.409930';

let world: World;
let server: ScriptedServer;
let env: Record<string, string>;
beforeAll(async () => {
  world = await createWorld();
  server = await startScriptedServer();
  env = { ...world.env, ENERGY_BASE_URL: server.url.origin };
});
afterAll(async () => {
  await server.close();
  await world.close();
});

const quoteOf = (total: string) => ({
  address: ADDRESS,
  energy: 65000,
  duration_hours: 1,
  energy_trx: total,
  activation_trx: null,
  total_trx: total,
  can_afford: true,
});
const OPTIONS = { energy_per_portion: 1000, max_energy: 5_000_000, duration_hours: [1], intake_enabled: true };
/**
 * `order create`'s answers by path: it reads the options beside the quote (for intake), in either order,
 * so a sequence of answers would not do.
 */
const rental =
  (quote: Handler, order: Handler): Handler =>
  (request, response) => {
    if (request.url === '/v1/energy/options') return jsonReply(200, OPTIONS)(request, response);
    return (request.url === '/v1/energy/quotes' ? quote : order)(request, response);
  };
const orderPosts = () => server.seen.filter((s) => s.method === 'POST' && s.url === '/v1/energy/orders');
const create = (...rest: string[]) => ['order', 'create', ADDRESS, '--energy', '65000', '--hours', '1', ...rest];

describe('amounts above 2^53 micro-TRX', () => {
  it('prints a balance exactly as sent', async () => {
    server.script(jsonReply(200, { available_trx: BIG, held_trx: BIG_MINUS_ONE, status: 'active' }));
    const result = await runInProcess(['balance'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`${BIG} TRX`);
    expect(result.stdout).toContain(`${BIG_MINUS_ONE} TRX`);
  });

  it('refuses a quote one micro-TRX above --max-total, and sends no order', async () => {
    server.script(rental(jsonReply(200, quoteOf(BIG)), jsonReply(500, {})));
    const before = orderPosts().length;
    const result = await runInProcess(create('--yes', '--max-total', BIG_MINUS_ONE), env);
    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`the total ${BIG} TRX is above --max-total ${BIG_MINUS_ONE}`);
    expect(orderPosts().length).toBe(before);
  });

  it('places an order at exactly --max-total, sends the amount as text and prints it exactly', async () => {
    server.script(
      rental(jsonReply(200, quoteOf(BIG)), (request, response) => {
        const body = JSON.parse(request.body.toString()) as { client_request_id: string };
        const order = sampleOrder({ client_request_id: body.client_request_id, total_trx: BIG, address: ADDRESS });
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(order));
      }),
    );
    const before = orderPosts().length;
    const result = await runInProcess(create('--yes', '--max-total', BIG), env);
    expect(result.code, result.stderr).toBe(0);
    expect(orderPosts().length).toBe(before + 1);
    expect(orderPosts().at(-1)!.body.toString()).toContain(`"expected_total_trx":"${BIG}"`);
    expect(result.stdout).toContain(`${BIG} TRX`);
  });

  it('refuses an order whose total is one micro-TRX above the expected total', async () => {
    server.script(
      rental(jsonReply(500, {}), (request, response) => {
        const body = JSON.parse(request.body.toString()) as { client_request_id: string };
        const order: Order = sampleOrder({
          client_request_id: body.client_request_id,
          total_trx: BIG,
          address: ADDRESS,
        });
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(order));
      }),
    );
    const result = await runInProcess(create('--expected-total', BIG_MINUS_ONE), env);
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`total_trx ${BIG} is above the expected ${BIG_MINUS_ONE}`);
  });

  it('holds and releases a balance to the micro-TRX in the sandbox', async () => {
    world.sandbox.setBalance(BIG);
    const address = freshAddress(4242);
    const result = await runInProcess(
      ['order', 'create', address, '--energy', '65000', '--hours', '1', '--yes', '--json'],
      world.env,
    );
    expect(result.code, result.stderr).toBe(0);
    const total = (JSON.parse(result.stdout) as Order).total_trx;
    const micro = (amount: string) => BigInt(amount.replace('.', ''));
    const held = await balanceOf(world);
    expect(micro(held.available_trx) + micro(held.held_trx)).toBe(micro(BIG));
    expect(micro(held.available_trx)).toBe(micro(BIG) - micro(total));
    await allDelivered(world);
    const after = await balanceOf(world);
    expect(micro(after.available_trx) + micro(after.held_trx)).toBe(micro(BIG) - micro(total));
  });
});
