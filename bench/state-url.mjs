// A stateful command with a shared state URL against the same command without one (issue 39 item 6), for
// npm run bench: `order pending` both ways, interleaved in one run, against a private PostgreSQL cluster this
// module starts as test/helpers/pg-cluster.ts does (initdb into a temporary folder, a unix socket there, no
// TCP, scram passwords; as root through runuser, as the `postgres` user). Also where the difference goes:
// loading the driver (a run whose socket has no server), the session and its statements (counted in the
// server's log).
//   node bench/state-url.mjs [--rounds n] [--bin path/to/bin/energy.js]
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const AS_ROOT = process.getuid?.() === 0;

/** initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/<version>/bin; undefined where not installed. */
export function postgresBin() {
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  let versions = [];
  try {
    versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  } catch {
    // Not installed there.
  }
  const candidates = [
    ...(onPath === '' ? [] : [dirname(onPath)]),
    ...versions.map((v) => `/usr/lib/postgresql/${v}/bin`),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

export function startCluster(bin) {
  const root = mkdtempSync(join(AS_ROOT ? '/tmp' : os.tmpdir(), 'energy-bench-pg-'));
  const password = `bench-${Math.random().toString(36).slice(2)}`;
  writeFileSync(join(root, 'pwfile'), `${password}\n`);
  if (AS_ROOT) {
    const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(root, id('-u'), id('-g'));
    chownSync(join(root, 'pwfile'), id('-u'), id('-g'));
  }
  chmodSync(root, 0o700);
  const run = (program, args) => {
    const command = AS_ROOT
      ? ['runuser', '-u', 'postgres', '--', join(bin, program), ...args]
      : [join(bin, program), ...args];
    execFileSync(command[0], command.slice(1), { stdio: 'pipe', env: { ...process.env, LC_ALL: 'C' } });
  };
  const data = join(root, 'data');
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${join(root, 'pwfile')}`,
    '--no-sync',
  ]);
  run('pg_ctl', [
    '-D',
    data,
    '-o',
    `-k ${root} -c listen_addresses= -F -c log_statement=all -c log_line_prefix=%a:`,
    '-l',
    join(root, 'log'),
    '-w',
    'start',
  ]);
  return {
    url: `postgresql://postgres@/postgres?host=${encodeURIComponent(root)}`,
    password,
    root,
    sql: (query) =>
      execFileSync(
        existsSync(join(bin, 'psql')) ? join(bin, 'psql') : 'psql',
        ['-h', root, '-U', 'postgres', '-At', '-c', query],
        {
          encoding: 'utf8',
          env: { ...process.env, PGPASSWORD: password },
        },
      ).trim(),
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function timed(node, args, env, code = 0) {
  const started = process.hrtime.bigint();
  const result = spawnSync(node, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== code) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/**
 * Medians of `order pending` with and without the URL (interleaved), what loading the driver and what the
 * session cost, and the statements one run sends; undefined where PostgreSQL is not installed.
 */
export async function measureStateUrl({ node, bin, env, rounds }) {
  const pgBin = postgresBin();
  if (pgBin === undefined) return undefined;
  const cluster = startCluster(pgBin);
  const work = mkdtempSync(join(os.tmpdir(), 'energy-bench-state-'));
  try {
    const folderEnv = { ...env, ENERGY_STATE_DIR: join(work, 'folder') };
    const urlEnv = { ...folderEnv, ENERGY_STATE_URL: cluster.url, PGPASSWORD: cluster.password };
    const args = [bin, 'order', 'pending', '--json'];
    timed(node, args, folderEnv);
    timed(node, args, urlEnv); // the schema, and the caches warm
    // A socket folder with no server: the run loads the driver, fails to connect at once and exits 11. Its
    // time over the folder's is what loading costs; the URL's time over it, the session and its statements.
    const unreachableEnv = {
      ...urlEnv,
      ENERGY_STATE_URL: `postgresql://postgres@/postgres?host=${encodeURIComponent(join(work, 'none'))}`,
    };
    const without = [];
    const withUrl = [];
    const unreachable = [];
    for (let round = 0; round < rounds; round += 1) {
      without.push(timed(node, args, folderEnv));
      withUrl.push(timed(node, args, urlEnv));
      unreachable.push(timed(node, args, unreachableEnv, 11));
    }
    // The statements of one run, from the server's log (log_statement=all, each line led by the session's name).
    const logged = () =>
      readFileSync(join(cluster.root, 'log'), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('energy/'));
    const before = logged().length;
    timed(node, args, urlEnv);
    const statements = logged().length - before;
    return {
      withoutMs: median(without),
      withMs: median(withUrl),
      driverLoadMs: median(unreachable) - median(without),
      sessionMs: median(withUrl) - median(unreachable),
      statements,
    };
  } finally {
    cluster.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const rounds = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 11;
  const bin = argv.includes('--bin')
    ? argv[argv.indexOf('--bin') + 1]
    : fileURLToPath(new URL('../bin/energy.js', import.meta.url));
  const home = mkdtempSync(join(os.tmpdir(), 'energy-bench-home-'));
  const env = { PATH: process.env.PATH, HOME: home, ENERGY_CONFIG_DIR: join(home, 'config') };
  console.log(await measureStateUrl({ node: process.execPath, bin, env, rounds }));
  rmSync(home, { recursive: true, force: true });
}
