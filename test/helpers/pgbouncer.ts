/**
 * A PgBouncer in front of the suite's private cluster (pg-cluster.ts), in transaction mode as fleets run it:
 * its own unix socket folder and no TCP listener, scram authentication with the cluster's password, started
 * before the file's first test and stopped after its last. As root it runs as `postgres` (PgBouncer refuses
 * to run as root), through `runuser`, as the cluster does. `ignoreStartupParameters` is PgBouncer's setting
 * of that name: by default it refuses a startup parameter it does not know (`options` among them).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { until } from './e2e.js';
import type { Cluster } from './pg-cluster.js';

const AS_ROOT = process.getuid?.() === 0;
/** Names the socket file only (.s.PGSQL.6432): no TCP port is bound. */
const SOCKET_PORT = 6432;

/** The pgbouncer program, on PATH or where Debian installs it; undefined where it is not installed. */
export function pgbouncerBin(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).stdout.trim();
  return [onPath, '/usr/sbin/pgbouncer'].find((path) => path !== '' && existsSync(path));
}

export interface Bouncer {
  /** postgresql:// URL of the cluster's `postgres` database through the bouncer, without the password. */
  url: string;
  /** ENERGY_STATE_URL through the bouncer, and PGPASSWORD. */
  env: Record<string, string>;
  /** How many sessions PgBouncer has refused for a startup parameter it does not know, as its log says. */
  refusals(): number;
}

export function bouncerForSuite(
  bin: string | undefined,
  cluster: { readonly current: Cluster },
  settings: { ignoreStartupParameters?: string } = {},
): { readonly current: Bouncer } {
  let running: { bouncer: Bouncer; child: ChildProcess; dir: string } | undefined;
  // runuser may not pass a signal on: the bouncer itself is stopped, by the id in its pid file.
  beforeAll(async () => {
    if (bin !== undefined) running = await startBouncer(bin, cluster.current, settings);
  }, 30_000);
  afterAll(async () => {
    if (running === undefined) return;
    const exited = new Promise((resolve) => running!.child.once('exit', resolve));
    const pid = Number(readFileSync(join(running.dir, 'pgbouncer.pid'), 'utf8').trim());
    process.kill(pid, 'SIGINT');
    await exited;
    rmSync(running.dir, { recursive: true, force: true });
  });
  return {
    get current() {
      if (running === undefined) throw new Error('the bouncer is read before its beforeAll ran');
      return running.bouncer;
    },
  };
}

async function startBouncer(
  bin: string,
  cluster: Cluster,
  settings: { ignoreStartupParameters?: string },
): Promise<{ bouncer: Bouncer; child: ChildProcess; dir: string }> {
  // Beside the cluster's folder, which the postgres user can reach.
  const dir = mkdtempSync(join(cluster.socketDir, '..', 'energy-bouncer-'));
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), `"postgres" "${cluster.password}"\n`, { mode: 0o600 });
  writeFileSync(
    config,
    [
      '[databases]',
      `postgres = host=${cluster.socketDir} dbname=postgres`,
      '[pgbouncer]',
      'listen_addr =',
      `listen_port = ${SOCKET_PORT}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = scram-sha-256',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 4',
      'max_client_conn = 200',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      ...(settings.ignoreStartupParameters === undefined
        ? []
        : [`ignore_startup_parameters = ${settings.ignoreStartupParameters}`]),
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  if (AS_ROOT) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    for (const path of [dir, config, join(dir, 'userlist.txt')]) chownSync(path, id('-u'), id('-g'));
  }
  const command = AS_ROOT ? ['runuser', '-u', 'postgres', '--', bin, config] : [bin, config];
  const child = spawn(command[0]!, command.slice(1), { stdio: 'ignore' });
  await until(
    'pgbouncer listens',
    () => existsSync(join(dir, `.s.PGSQL.${SOCKET_PORT}`)) && existsSync(join(dir, 'pgbouncer.pid')),
    15_000,
  );
  const url = `postgresql://postgres@/postgres?host=${encodeURIComponent(dir)}&port=${SOCKET_PORT}`;
  const refusals = () =>
    readFileSync(join(dir, 'pgbouncer.log'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('closing because: unsupported startup parameter')).length;
  return { bouncer: { url, env: { ENERGY_STATE_URL: url, PGPASSWORD: cluster.password }, refusals }, child, dir };
}
