// What the fleet and ledger benches (fleet, fleet-start, fleet-cycles, ledger, folder-ledger) share: the
// build's sandbox in this process (so that its requests can be counted), a private PostgreSQL
// (bench/pg-cluster.mjs) where the bench names one, a work folder, each host's environment, addresses made
// from a tag, one measured `energy` run, and the cleanup.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { postgresBin, startCluster } from './pg-cluster.mjs';

/**
 * Starts the sandbox of the build `bin` belongs to (no rate limit, a balance that never runs out, and
 * `sandboxOptions`), with a private cluster when `postgres` (else undefined where PostgreSQL is not installed).
 * `name` names the work folder. `env(state)` is a host's environment: its own state folder `state` in the work
 * folder, the cluster's URL, the sandbox as API and TRON node. `addresses(tag, count)`: `count` distinct
 * addresses made from the byte `tag`. `close()` stops all and removes the folders.
 */
export async function startFleetHosts({ bin, name, postgres = true, sandboxOptions = {} }) {
  const pgBin = postgres ? postgresBin() : undefined;
  if (postgres && pgBin === undefined) return undefined;
  const dist = join(dirname(bin), '..', 'dist');
  const { startSandbox } = await import(pathToFileURL(join(dist, 'sandbox', 'index.js')).href);
  const { encodeTronAddress } = await import(pathToFileURL(join(dist, 'domain', 'address.js')).href);
  const cluster = postgres ? startCluster(pgBin) : undefined;
  const sandbox = await startSandbox({ rateLimit: false, startingBalance: '1000000000.000000', ...sandboxOptions });
  const work = mkdtempSync(join(os.tmpdir(), `energy-bench-${name}-`));
  const env = (state) => ({
    PATH: process.env.PATH,
    HOME: work,
    ENERGY_CONFIG_DIR: join(work, 'config'),
    ENERGY_STATE_DIR: join(work, state),
    ...(cluster !== undefined && { ENERGY_STATE_URL: cluster.url }),
    ENERGY_BASE_URL: sandbox.url,
    ENERGY_API_KEY: sandbox.apiKey,
    ENERGY_API_SECRET: sandbox.apiSecret,
    ENERGY_TRON_NODE: sandbox.url,
  });
  const addresses = (tag, count) =>
    Array.from({ length: count }, (_, i) => {
      const id = Buffer.alloc(20, tag);
      id.writeUInt32BE(i, 0);
      return encodeTronAddress(Buffer.concat([Buffer.from([0x41]), id]));
    });
  return {
    sandbox,
    cluster,
    work,
    env,
    addresses,
    encodeTronAddress,
    async close() {
      try {
        await sandbox.close();
        cluster?.stop();
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
  };
}

/** One `node args` run to its end, with its wall time and peak RSS (bench/report-rss.mjs); rejects on an exit ≠ 0. */
export function measuredRun(node, args, env, rssFile) {
  const started = performance.now();
  const child = spawn(node, ['--import', fileURLToPath(new URL('./report-rss.mjs', import.meta.url)), ...args], {
    env: { ...env, BENCH_RSS_FILE: rssFile },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  return new Promise((done, fail) =>
    child.on('exit', (code) =>
      code === 0
        ? done({ seconds: (performance.now() - started) / 1000, rssMiB: Number(readFileSync(rssFile, 'utf8')) / 1024 })
        : fail(new Error(`ensure exited ${code}: ${stderr}`)),
    ),
  );
}
