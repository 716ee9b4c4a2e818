/**
 * The --max-spend ledger in PostgreSQL against a run whose clock reads far ahead: a one-shot `ensure` whose
 * first `GET /v1/time` answer is two days ahead (an answer a proxy rewrote; the API itself is right), beside a
 * service at its full 8/1h. The ledger's own entries and the database's clock say where the API's time is:
 * the run counts from there (the service's 7.8 TRX are in its window) and buys nothing, and it prunes
 * nothing past the ledger's newest entry less its longest window, so the service buys nothing more either.
 * Counted at the sandbox and in the database.
 */
import { createServer, request, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import type { RunningCli } from '../helpers/cli.js';
import { freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { rentalArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();
const TWO_DAYS_S = 2 * 86_400;

/** A front for the sandbox that answers its first GET /v1/time two days ahead, and passes the rest on. */
async function aheadFront(target: string): Promise<{ url: string; server: Server; timeReads: () => number }> {
  const base = new URL(target);
  let reads = 0;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const forward = request(
        {
          host: base.hostname,
          port: base.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            let text = Buffer.concat(body);
            if (incoming.method === 'GET' && incoming.url === '/v1/time' && (reads += 1) === 1) {
              const time = JSON.parse(text.toString('utf8')) as { unix_time: number };
              text = Buffer.from(JSON.stringify({ ...time, unix_time: time.unix_time + TWO_DAYS_S }));
            }
            const headers = { ...answer.headers, 'content-length': String(text.length) };
            outgoing.writeHead(answer.statusCode ?? 502, headers).end(text);
          });
        },
      );
      forward.on('error', () => outgoing.writeHead(502).end());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, server, timeReads: () => reads };
}

const refusals = (running: RunningCli) =>
  running
    .output()
    .stdout.split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"spend_limit"')).length;

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, 'the ledger against a clock days ahead', () => {
  // An order delivers after 100 ms and its "hour" lasts 2 s: the service's need comes back every ~2 s.
  const world = worldForSuite({ deliverAfterMs: 100, hourMs: 2_000, rateLimit: false });
  const cluster = clusterForSuite(bin);

  it('a one-shot run whose /v1/time reads 2 days ahead, beside a service at its full 8/1h: it buys nothing, prunes nothing, and the service buys nothing more', async () => {
    const [a, b, c] = [freshAddress(33_201), freshAddress(33_202), freshAddress(33_203)];
    for (const address of [a, b, c]) world.sandbox.seedTronAccount(address, { activated: true });
    // 0.000060 TRX per energy for 1 h: 65,000 energy is 3.900000 TRX; two of them fill 8/1h.
    world.sandbox.setRates({ 1: '0.000060' });
    const env = (extra: Record<string, string> = {}) => ({
      ...cluster.current.env,
      ENERGY_TRON_NODE: world.sandbox.url,
      ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-ahead-')),
      ...extra,
    });
    const ceiling = ['--yes', '--max-spend', '8/1h', '--json'];
    const service = world.spawn(['ensure', ...rentalArgs([a, b], '--every', '300ms', ...ceiling)], { env: env() });
    onTestFinished(() => void service.child.kill('SIGKILL'));
    await until('the service at its full ceiling', () => refusals(service) >= 2, 30_000);
    const front = await aheadFront(world.sandbox.url);
    onTestFinished(() => void front.server.close());
    const ahead = await world.run(['ensure', ...rentalArgs(c, ...ceiling)], {
      env: env({ ENERGY_BASE_URL: front.url }),
    });
    expect(front.timeReads()).toBeGreaterThanOrEqual(1);
    expect(ahead.code, ahead.stderr).toBe(5);
    expect(JSON.parse(ahead.stdout).items[0].error.message).toMatch(/: 0\.200000 TRX left of 8\.000000;/);
    // The service's orders are still in the ledger, and it goes on refusing (its hour is not over).
    expect(
      cluster.current.sql("SELECT count(DISTINCT client_request_id) FROM energy.spend_event WHERE kind = 'order'"),
    ).toBe('2');
    const before = refusals(service);
    await until('the service refused twice more', () => refusals(service) >= before + 2, 30_000);
    service.child.kill('SIGTERM');
    expect((await service.result).code).toBe(0);
    expect(
      world.sandbox
        .orders()
        .map((order) => order.address)
        .sort(),
    ).toEqual([a, b].sort());
  }, 90_000);
});
