/**
 * A private PostgreSQL cluster for one test file: `initdb` into a temporary folder, `pg_ctl start` with a unix
 * socket in that folder and no TCP, password authentication (scram), stopped and removed after the file. As
 * root the server runs as the `postgres` user (PostgreSQL refuses to run as root), through `runuser`. The
 * programs are looked for on PATH, then in Debian's /usr/lib/postgresql/<version>/bin.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** The folder holding initdb and pg_ctl, or undefined where PostgreSQL is not installed. */
export function postgresBin(): string | undefined {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  const candidates = [
    ...(onPath === '' ? [] : [join(onPath, '..')]),
    ...versionsIn('/usr/lib/postgresql').map((version) => `/usr/lib/postgresql/${version}/bin`),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

function versionsIn(dir: string): string[] {
  try {
    return readdirSync(dir).sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

const AS_ROOT = process.getuid?.() === 0;

export interface Cluster {
  /** postgresql:// URL of the cluster's `postgres` database over its socket, without the password. */
  url: string;
  /** The password (scram) of the `postgres` user: give it as PGPASSWORD. */
  password: string;
  /** What a run needs to reach it: ENERGY_STATE_URL and PGPASSWORD. */
  env: Record<string, string>;
  socketDir: string;
  stop(): void;
  start(): void;
  /** SQL run through psql in `database` (default postgres), its output (unaligned, tuples only). */
  sql(query: string, database?: string): string;
}

/** Starts a cluster before the file's (or describe's) first test and removes it after the last. */
export function clusterForSuite(bin: string | undefined): { readonly current: Cluster } {
  let cluster: (Cluster & { remove(): void }) | undefined;
  beforeAll(() => {
    if (bin !== undefined) cluster = startCluster(bin);
  }, 60_000);
  afterAll(() => cluster?.remove());
  return {
    get current() {
      if (cluster === undefined) throw new Error('the cluster is read before its beforeAll ran');
      return cluster;
    },
  };
}

function startCluster(bin: string): Cluster & { remove(): void } {
  const root = mkdtempSync(join(reachableTmp(), 'energy-pg-'));
  const data = join(root, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  const pwfile = join(root, 'pwfile');
  writeFileSync(pwfile, `${password}\n`);
  if (AS_ROOT) {
    const { uid, gid } = postgresIds();
    chownSync(root, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  chmodSync(root, 0o700);
  const run = (program: string, args: string[]) => {
    const command = AS_ROOT
      ? ['runuser', '-u', 'postgres', '--', join(bin, program), ...args]
      : [join(bin, program), ...args];
    execFileSync(command[0]!, command.slice(1), { stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } });
  };
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${pwfile}`,
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const options = `-k ${root} -c listen_addresses= -F -c max_connections=60`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(root, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
  start();
  const url = `postgresql://postgres@/postgres?host=${encodeURIComponent(root)}`;
  return {
    url,
    password,
    env: { ENERGY_STATE_URL: url, PGPASSWORD: password },
    socketDir: root,
    start,
    stop,
    sql: (query, database = 'postgres') =>
      execFileSync(
        existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql',
        ['-h', root, '-U', 'postgres', '-d', database, '-At', '-c', query],
        {
          encoding: 'utf8',
          env: { ...process.env, PGPASSWORD: password },
        },
      ).trim(),
    remove: () => {
      try {
        stop();
      } catch {
        // Stopped already.
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The temporary folder, where the postgres user can reach it (as root, TMPDIR may be private): else /tmp. */
function reachableTmp(): string {
  if (!AS_ROOT) return tmpdir();
  const probe = spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', tmpdir()]);
  return probe.status === 0 ? tmpdir() : '/tmp';
}

function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}
