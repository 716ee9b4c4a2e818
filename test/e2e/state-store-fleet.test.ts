/**
 * docs/fleet.md's compose example, its commands run as written (there is no Docker engine here, as for the
 * Dockerfile's HEALTHCHECK): each `energy-*` service's `command:` after the Dockerfile's ENTRYPOINT, against
 * the sandbox and a private PostgreSQL, each service with its own empty state folder. One order between them.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { describeWhere } from '../helpers/machine-needs.js';
import { clusterForSuite, postgresBin } from '../helpers/pg-cluster.js';
import { worldForSuite } from '../helpers/suite-world.js';

const bin = postgresBin();
const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

/** The compose block's `command:` of each energy service, in order. */
function composeCommands(): string[][] {
  const manual = read('../../docs/fleet.md');
  const block = /```yaml\n([\s\S]*?)```/.exec(manual)![1]!;
  return [...block.matchAll(/^ {2}energy-[a-z]+:\n(?: {4}.*\n)*? {4}command: (\[.*\])$/gm)].map(
    (match) => JSON.parse(match[1]!) as string[],
  );
}

describeWhere('PostgreSQL (initdb, pg_ctl)', bin !== undefined, "the manual's fleet example", () => {
  const world = worldForSuite({ rateLimit: false });
  const cluster = clusterForSuite(bin);

  it('two services from the compose example, each without a volume, one database: one order for the need', async () => {
    const withInit = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(read('../../Dockerfile'))![1]!) as string[];
    // tini, the image's PID 1, runs the command: the command itself is what follows its `--`.
    expect(withInit.slice(0, 2)).toEqual(['/sbin/tini', '--']);
    // `node --disable-sigusr1 /usr/local/bin/energy`, then energy's own arguments.
    const entrypoint = withInit.slice(withInit.indexOf('/usr/local/bin/energy'));
    expect(entrypoint.slice(0, 2)).toEqual(['/usr/local/bin/energy', 'ensure']);
    const commands = composeCommands();
    expect(commands).toHaveLength(2);
    const address = freshAddress(33_201);
    const services = commands.map((command) => {
      const args = [...entrypoint.slice(1), ...command].map((arg) =>
        arg === '0.0.0.0:9464' ? '127.0.0.1:0' : arg === 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY' ? address : arg,
      );
      return world.spawn(args, {
        env: {
          ...cluster.current.env,
          ENERGY_TRON_NODE: world.sandbox.url,
          ENERGY_STATE_DIR: mkdtempSync(join(tmpdir(), 'energy-compose-')),
        },
      });
    });
    const cycled = (stdout: string) => stdout.split('\n').some((line) => line.startsWith('{"cycle":1'));
    await until('both services ended a cycle', () => services.every((s) => cycled(s.output().stdout)), 30_000);
    for (const service of services) service.child.kill('SIGTERM');
    for (const result of await Promise.all(services.map((service) => service.result)))
      expect(result.code, result.stderr).toBe(0);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
  }, 60_000);
});
