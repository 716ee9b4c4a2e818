// A private PostgreSQL cluster for the fleet bench: initdb into a temporary folder, a unix socket there and no
// TCP, trust authentication (only this machine's processes reach the socket folder, 0700), every statement
// logged with its duration (the bench reads the log). The same steps as test/helpers/pg-cluster.ts, without
// vitest's hooks; as root the server runs as `postgres` through runuser.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** Starts a cluster with PostgreSQL's defaults (but statement logging); returns its URL, sql() and stop(). */
export function startCluster(bin) {
  const root = mkdtempSync(join(reachableTmp(), 'energy-bench-pg-'));
  const data = join(root, 'data');
  if (AS_ROOT) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, id('-u'), id('-g'));
  }
  chmodSync(root, 0o700);
  const run = (program, args) => {
    const command = AS_ROOT
      ? ['runuser', '-u', 'postgres', '--', join(bin, program), ...args]
      : [join(bin, program), ...args];
    execFileSync(command[0], command.slice(1), { stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const log = join(root, 'log');
  const options = `-k ${root} -c listen_addresses= -F -c log_min_duration_statement=0 -c log_line_prefix='%a|%x|'`;
  run('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', 'start']);
  const psql = existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql';
  const sql = (query) =>
    execFileSync(psql, ['-h', root, '-U', 'postgres', '-d', 'postgres', '-At', '-c', query], {
      encoding: 'utf8',
    }).trim();
  const sqlLater = (query) =>
    new Promise((done, fail) =>
      execFile(psql, ['-h', root, '-U', 'postgres', '-d', 'postgres', '-At', '-c', query], (error, stdout) =>
        error ? fail(error) : done(stdout.trim()),
      ),
    );
  return {
    url: `postgresql://postgres@/postgres?host=${encodeURIComponent(root)}`,
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
        /^energy[^|]*\|\d*\|LOG: {2}duration: ([\d.]+) ms {2}(statement|parse|bind|execute)/gm,
      )) {
        pending += Number(m[1]);
        if (m[2] === 'statement' || m[2] === 'execute') {
          durations.push(pending);
          pending = 0;
        }
      }
      return durations;
    },
    logSize: () => readFileSync(log).length,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

function reachableTmp() {
  if (!AS_ROOT) return tmpdir();
  return spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', tmpdir()]).status === 0 ? tmpdir() : '/tmp';
}
