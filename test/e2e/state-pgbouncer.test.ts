/**
 * The shared state through PgBouncer in transaction mode, as fleets put one in front of their database: a
 * server session is shared between clients transaction by transaction, so nothing may rely on session state
 * across transactions, and PgBouncer refuses (by default) or drops (`ignore_startup_parameters = options`)
 * the startup options that carry the time limits straight to PostgreSQL. The limits must hold either way
 * (SET LOCAL in each transaction), and the journal's rules too. Orders counted at the sandbox.
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { expectNoStackTrace, freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { pendingIdsOf } from '../helpers/pending.js';
import { bouncerForSuite, pgbouncerBin } from '../helpers/pgbouncer.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { holdLock, whileJournalLocked } from '../helpers/pg-lock.js';
import { orderCreateArgs } from '../helpers/rental.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const bin = postgresBin();
const bouncer = pgbouncerBin();
const ORDERS = '/v1/energy/orders';
const ENSURE = ['--energy', '65000', '--hours', '1', '--yes', '--json'];

for (const [name, ignore] of [
  ['refusing startup options (its default)', undefined],
  ['dropping startup options (ignore_startup_parameters = options)', 'options'],
] as const) {
  describeWhere(
    'PostgreSQL and pgbouncer',
    bin !== undefined && bouncer !== undefined,
    `the shared state through PgBouncer in transaction mode, ${name}`,
    () => {
      const world = worldForSuite({ rateLimit: false });
      const cluster = clusterForSuite(bin);
      const through = bouncerForSuite(
        bouncer,
        cluster,
        ignore === undefined ? {} : { ignoreStartupParameters: ignore },
      );
      const ordersTo = (address: string) => world.sandbox.orders().filter((order) => order.address === address);
      const host = (extra: Record<string, string> = {}) => ({
        ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-host-')),
        ENERGY_TRON_NODE: world.sandbox.url,
        ...through.current.env,
        ...extra,
      });

      it('an order killed after the server committed it is recovered by another host once; ensure then buys nothing', async () => {
        const address = freshAddress(ignore === undefined ? 39_301 : 39_311);
        world.sandbox.inject({ kind: 'hold-after-commit', match: { method: 'POST', path: ORDERS } });
        try {
          const running = world.spawn(orderCreateArgs(address, '--yes'), { env: host() });
          await until('the order is committed', () => ordersTo(address).length === 1, 15_000);
          running.child.kill('SIGKILL');
          await running.result;
        } finally {
          world.sandbox.clearFaults();
        }
        const b = { env: host() };
        expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], b))).toHaveLength(1);
        const recovered = await world.run(['order', 'recover', '--yes'], b);
        expect(recovered.code, recovered.stderr).toBe(0);
        expect(pendingIdsOf(await world.run(['order', 'pending', '--json'], { env: host() }))).toEqual([]);
        const ensure = await world.run(['ensure', address, ...ENSURE], { env: host() });
        expect(ensure.code, ensure.stderr).toBe(0);
        expect(['enough', 'in_flight']).toContain(json<{ items: { reason: string }[] }>(ensure).items[0]!.reason);
        expect(ordersTo(address)).toHaveLength(1);
      }, 60_000);

      it('two hosts ensuring one address at once through it: one order', async () => {
        const address = freshAddress(ignore === undefined ? 39_302 : 39_312);
        const results = await Promise.all(
          [host(), host()].map((env) => world.run(['ensure', address, ...ENSURE], { env })),
        );
        for (const result of results) expect(result.code, result.stderr).toBe(0);
        expect(ordersTo(address)).toHaveLength(1);
      }, 60_000);

      it('a host remembers what became of its startup options: its next run sends none (one session, not two)', async () => {
        // A home of its own: the note is in its private cache folder (~/.cache/energy).
        const home = mkdtempSync(join(tmpdir(), 'energy-home-'));
        const env = host({ HOME: home });
        const refusedBefore = through.current.refusals();
        const first = await world.run(['order', 'pending', '--json'], { env });
        expect(first.code, first.stderr).toBe(0);
        expect(through.current.refusals() - refusedBefore).toBe(ignore === undefined ? 1 : 0);
        const second = await world.run(['order', 'pending', '--json'], { env });
        expect(second.code, second.stderr).toBe(0);
        expect(json(second)).toEqual(json(first));
        expect(through.current.refusals() - refusedBefore).toBe(ignore === undefined ? 1 : 0);
        const notes = readdirSync(join(home, '.cache', 'energy')).filter((name) => name.startsWith('pg-startup-'));
        expect(notes).toHaveLength(1);
        expect(statSync(join(home, '.cache', 'energy', notes[0]!)).mode & 0o777).toBe(0o600);
      }, 60_000);

      it('the time limits hold through it: a lock held past lock_timeout (PGOPTIONS) is exit 11, nothing bought', async () => {
        const address = freshAddress(ignore === undefined ? 39_303 : 39_313);
        const env = host({ PGOPTIONS: '-c lock_timeout=1s' });
        expect((await world.run(['order', 'pending'], { env })).code).toBe(0);
        const result = await whileJournalLocked(cluster.current, () =>
          world.run(['ensure', address, ...ENSURE], { env }),
        );
        expectNoStackTrace(result);
        expect(result.code, result.stderr).toBe(11);
        expect(result.stderr).toContain('lock_timeout (1s)');
        expect(ordersTo(address)).toHaveLength(0);
      }, 60_000);

      it('the limits hold from the first statement of a host that knows the pooler: the schema version’s read', async () => {
        const env = host({ HOME: mkdtempSync(join(tmpdir(), 'energy-home-')), PGOPTIONS: '-c lock_timeout=1s' });
        // The first run notes the pooler's way with startup options; the next opens its sessions without them.
        expect((await world.run(['order', 'pending'], { env })).code).toBe(0);
        const lock = await holdLock(cluster.current, 'LOCK TABLE energy.schema_version IN ACCESS EXCLUSIVE MODE');
        let released: Promise<void> | undefined;
        const release = () => (released ??= lock.release());
        // A read without the limit waits for the lock: let it go after 10 s, so that such a run ends (exit 0).
        const unlock = setTimeout(() => void release(), 10_000);
        try {
          const result = await world.run(['order', 'pending', '--json'], { env });
          expectNoStackTrace(result);
          expect(result.code, result.stderr).toBe(11);
          expect(result.stderr).toContain('lock_timeout (1s)');
        } finally {
          clearTimeout(unlock);
          await release();
        }
      }, 60_000);
    },
  );
}
