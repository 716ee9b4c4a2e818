// A stateful command with a shared state URL against the same command without one (issue 39 item 6), for
// npm run bench: `order pending` both ways, interleaved in one run, against a private PostgreSQL cluster
// (pg-cluster.mjs, with a scram password as a real server asks). Also where the difference goes:
// loading the driver (a run whose socket has no server), the session and its statements (counted in the
// server's log).
//   node bench/state-url.mjs [--rounds n] [--bin path/to/bin/energy.js]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresBin, startCluster } from './pg-cluster.mjs';

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
  const password = `bench-${Math.random().toString(36).slice(2)}`;
  const cluster = startCluster(pgBin, { password });
  const work = mkdtempSync(join(os.tmpdir(), 'energy-bench-state-'));
  try {
    const folderEnv = { ...env, ENERGY_STATE_DIR: join(work, 'folder') };
    const urlEnv = { ...folderEnv, ENERGY_STATE_URL: cluster.url, PGPASSWORD: password };
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
    // The statements of one run, from the server's log (each logged with its session's name).
    const before = cluster.logSize();
    timed(node, args, urlEnv);
    const statements = cluster.statements(before).length;
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
