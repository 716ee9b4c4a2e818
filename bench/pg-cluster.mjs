// A private PostgreSQL cluster for the benches (fleet.mjs, state-url.mjs), and a PgBouncer in front of one: initdb into a temporary folder, a
// unix socket there and no TCP, trust authentication (only this machine's processes reach the socket folder,
// 0700) or, given a password, scram as a real server asks; every statement logged with its duration (the
// benches read the log). The same steps as test/helpers/pg-cluster.ts, without vitest's hooks; as root the
// server runs as `postgres` through runuser.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const AS_ROOT = process.getuid?.() === 0;

/** The folder holding initdb and pg_ctl, or undefined where PostgreSQL is not installed. */
export function postgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  let versions = [];
  try {
    versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  } catch {
    // Not Debian's layout.
  }
  const candidates = [
    ...(onPath === '' ? [] : [join(onPath, '..')]),
    ...versions.map((v) => `/usr/lib/postgresql/${v}/bin`),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/**
 * Starts a cluster with PostgreSQL's defaults (but statement logging); returns its URL, sql() and stop().
 * `password`: the `postgres` user's, asked with scram (else trust).
 */
export function startCluster(bin, { password } = {}) {
  const root = mkdtempSync(join(reachableTmp(), 'energy-bench-pg-'));
  const data = join(root, 'data');
  const pwfile = join(root, 'pwfile');
  if (password !== undefined) writeFileSync(pwfile, `${password}\n`);
  if (AS_ROOT) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, id('-u'), id('-g'));
    if (password !== undefined) chownSync(pwfile, id('-u'), id('-g'));
  }
  chmodSync(root, 0o700);
  const run = (program, args) => {
    const command = AS_ROOT
      ? ['runuser', '-u', 'postgres', '--', join(bin, program), ...args]
      : [join(bin, program), ...args];
    execFileSync(command[0], command.slice(1), { stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } });
  };
  const auth = password === undefined ? ['--auth=trust'] : ['--auth=scram-sha-256', `--pwfile=${pwfile}`];
  run('initdb', ['-D', data, '-U', 'postgres', ...auth, '--no-sync', '-E', 'UTF8']);
  const log = join(root, 'log');
  // ENERGY_BENCH_PG_KEEP=<folder>: each line also says when and which backend (%m %p), lock waits over 50 ms are
  // logged, and the log is copied there at the end (bench/cycle-breakdown.mjs reads it).
  const keep = process.env.ENERGY_BENCH_PG_KEEP;
  const extra = keep ? ` -c log_lock_waits=on -c deadlock_timeout=50ms` : '';
  const options = `-k ${root} -c listen_addresses= -F -c log_min_duration_statement=0 -c log_line_prefix='%a|%x|${keep ? '%m %p|' : ''}'${extra}`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', 'start']);
  const psql = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  const psqlEnv = { ...process.env, ...(password !== undefined && { PGPASSWORD: password }) };
  const psqlArgs = (query) => ['-h', root, '-U', 'postgres', '-d', 'postgres', '-At', '-c', query];
  const sql = (query) => execFileSync(psql, psqlArgs(query), { encoding: 'utf8', env: psqlEnv }).trim();
  const sqlLater = (query) =>
    new Promise((done, fail) =>
      execFile(psql, psqlArgs(query), { env: psqlEnv }, (error, stdout) => (error ? fail(error) : done(stdout.trim()))),
    );
  return {
    url: `postgresql://postgres@/postgres?host=${encodeURIComponent(root)}`,
    socketDir: root,
    sql,
    /** As sql(), without blocking this process (the sandbox answers meanwhile). */
    sqlLater,
    /**
     * The durations (ms) of the statements logged from `from` (a byte offset of the log) on by sessions named
     * `energy…`: a simple query's, or an extended one's parse, bind and execute together.
     */
    statements(from = 0) {
      const text = readFileSync(log).subarray(from).toString('utf8');
      const durations = [];
      let pending = 0;
      for (const m of text.matchAll(
        /^energy[^|]*\|\d*\|(?:[^|]*\|)?LOG: {2}duration: ([\d.]+) ms {2}(statement|parse|bind|execute)/gm,
      )) {
        pending += Number(m[1]);
        if (m[2] === 'statement' || m[2] === 'execute') {
          durations.push(pending);
          pending = 0;
        }
      }
      return durations;
    },
    /** The log's length in bytes, without reading it (a bench polls it while the sandbox in its process answers). */
    logSize: () => statSync(log).size,
    stop() {
      try {
        if (keep) copyFileSync(log, join(keep, `pg-${Date.now()}.log`));
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/** The pgbouncer program, on PATH or where Debian installs it; undefined where it is not installed. */
export function pgbouncerBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).stdout.trim();
  return [onPath, '/usr/sbin/pgbouncer'].find((path) => path !== '' && existsSync(path));
}

/**
 * PgBouncer in transaction mode in front of a trust cluster, as fleets run it (test/helpers/pgbouncer.ts,
 * without vitest): a unix socket only, trust from its clients (the folder is private). Returns its URL and
 * stop(). Waits (blocking, a bench's set-up) until its socket is there.
 */
export function startBouncer(bin, cluster) {
  const dir = mkdtempSync(join(reachableTmp(), 'energy-bench-bouncer-'));
  const port = 6432;
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n', { mode: 0o600 });
  writeFileSync(
    config,
    [
      '[databases]',
      `postgres = host=${cluster.socketDir} dbname=postgres`,
      '[pgbouncer]',
      'listen_addr =',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      // The admin console (SHOW STATS: bytes in and out), for bench/claim-bytes.mjs.
      'admin_users = postgres',
      'default_pool_size = 4',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  if (AS_ROOT) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    for (const path of [dir, config, join(dir, 'userlist.txt')]) chownSync(path, id('-u'), id('-g'));
  }
  chmodSync(dir, 0o700);
  const command = AS_ROOT ? ['runuser', '-u', 'postgres', '--', bin, '-d', config] : [bin, '-d', config];
  execFileSync(command[0], command.slice(1), { stdio: 'ignore' });
  const socket = join(dir, `.s.PGSQL.${port}`);
  for (let waited = 0; !existsSync(socket); waited += 50) {
    if (waited > 15_000)
      throw new Error(`pgbouncer did not start: ${readFileSync(join(dir, 'pgbouncer.log'), 'utf8')}`);
    spawnSync('sleep', ['0.05']);
  }
  return {
    url: `postgresql://postgres@/postgres?host=${encodeURIComponent(dir)}&port=${port}`,
    /** SHOW STATS of the admin console: each database's row, by column name. */
    stats() {
      const psql = spawnSync(
        'psql',
        ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', 'pgbouncer', '-A', '-c', 'SHOW STATS'],
        {
          encoding: 'utf8',
        },
      );
      const [header, ...rows] = psql.stdout.trim().split('\n');
      const names = header.split('|');
      return rows
        .filter((row) => row.includes('|'))
        .map((row) => Object.fromEntries(row.split('|').map((value, i) => [names[i], value])));
    },
    stop() {
      try {
        if (keep) copyFileSync(log, join(keep, `pg-${Date.now()}.log`));
        process.kill(Number(readFileSync(join(dir, 'pgbouncer.pid'), 'utf8').trim()), 'SIGINT');
      } catch {
        // Already gone.
      }
      for (let waited = 0; existsSync(join(dir, 'pgbouncer.pid')) && waited < 5000; waited += 50)
        spawnSync('sleep', ['0.05']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function reachableTmp() {
  if (!AS_ROOT) return tmpdir();
  return spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', tmpdir()]).status === 0 ? tmpdir() : '/tmp';
}
