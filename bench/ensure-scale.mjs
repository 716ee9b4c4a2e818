// `ensure` at the size of a cron job's address list, for npm run bench: the TRON node requests per address and
// the time of one run over 1,000 addresses against the sandbox, in two states: all have enough (the steady
// state: reads only) and 1% short with --dry-run (what a run that would buy reads more). The sandbox runs in
// this process so that its request log can be counted; the CLI is spawned, asynchronously, so the sandbox
// keeps answering.
//   node bench/ensure-scale.mjs [--bin path/to/bin/energy.js]… [--rounds n]
// Several --bin: each build measured against its own sandbox, one row each (e.g. a checkout before a change).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ENSURE_ADDRESSES = 1_000;
const SHORT_EVERY = 100;

/** A spawned run's wall time in ms; rejects on a non-zero exit. */
function timedRun(node, args, env) {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code === 0) done(ms);
      else fail(new Error(`ensure exited ${code}: ${stderr.slice(0, 500)}`));
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One build's sandbox (from its own dist/) and its two runs, ready to be timed. */
async function setUp(node, bin) {
  const dist = join(dirname(bin), '..', 'dist');
  const { startSandbox } = await import(pathToFileURL(join(dist, 'sandbox', 'index.js')).href);
  const { encodeTronAddress } = await import(pathToFileURL(join(dist, 'domain', 'address.js')).href);
  const addresses = Array.from({ length: ENSURE_ADDRESSES }, (_, i) => {
    const id = Buffer.alloc(20, 0x5a);
    id.writeUInt32BE(i, 0);
    return encodeTronAddress(Buffer.concat([Buffer.from([0x41]), id]));
  });
  const short = addresses.filter((_, i) => i % SHORT_EVERY === 0);
  const tronAccounts = Object.fromEntries(addresses.map((a) => [a, { energy: 65_000, usdt: 5_000_000n }]));
  const sandbox = await startSandbox({ rateLimit: false, startingBalance: '100000000.000000', tronAccounts });
  const work = mkdtempSync(join(os.tmpdir(), 'energy-bench-ensure-'));
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    ENERGY_CONFIG_DIR: join(work, 'config'),
    ENERGY_STATE_DIR: join(work, 'state'),
    ENERGY_BASE_URL: sandbox.url,
    ENERGY_API_KEY: sandbox.apiKey,
    ENERGY_API_SECRET: sandbox.apiSecret,
    ENERGY_TRON_NODE: sandbox.url,
  };
  const base = [bin, 'ensure', ...addresses, '--energy', '65000', '--hours', '1', '--json'];
  const counted = async (args) => {
    const before = sandbox.tronRequests().length;
    const ms = await timedRun(node, args, env);
    return { ms, requests: sandbox.tronRequests().length - before };
  };
  return {
    enough: () => {
      for (const address of addresses) sandbox.seedTronAccount(address, { energy: 65_000, usdt: 5_000_000n });
      return counted(base);
    },
    short: () => {
      for (const address of short) sandbox.seedTronAccount(address, { energy: 1_000, usdt: 5_000_000n });
      return counted([...base, '--dry-run']);
    },
    shortCount: short.length,
    close: async () => {
      await sandbox.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * Times `ensure` over ENSURE_ADDRESSES addresses with each build in `bins` (its own dist/ serves its sandbox),
 * rounds interleaved across the builds so that a noisy machine slows them alike. One result per build:
 * { enoughMs, readsPerAddress, shortMs, readsPerShortAddress, shortCount }.
 */
export async function measureEnsureScale({ node = process.execPath, bins, rounds = 5 }) {
  const setups = [];
  try {
    for (const bin of bins) setups.push(await setUp(node, bin));
    const runs = setups.map(() => ({ enough: [], short: [] }));
    for (const setup of setups) await setup.enough(); // warm the file and compile caches
    for (let round = 0; round < rounds; round += 1) {
      for (const [index, setup] of setups.entries()) {
        runs[index].enough.push(await setup.enough());
        runs[index].short.push(await setup.short());
      }
    }
    return runs.map(({ enough, short }, index) => {
      const perAddress = enough[0].requests / ENSURE_ADDRESSES;
      // The short run reads every address as the steady one does; what it adds is for the short ones.
      const extra = short[0].requests - enough[0].requests;
      return {
        enoughMs: median(enough.map((r) => r.ms)),
        readsPerAddress: perAddress,
        shortMs: median(short.map((r) => r.ms)),
        readsPerShortAddress: perAddress + extra / setups[index].shortCount,
        shortCount: setups[index].shortCount,
      };
    });
  } finally {
    for (const setup of setups) await setup.close();
  }
}

export function ensureScaleRows(label, figures) {
  return [
    `| ${label}: \`ensure\`, ${ENSURE_ADDRESSES.toLocaleString('en-US')} addresses with enough | ${figures.enoughMs.toFixed(0)} ms | ${figures.readsPerAddress.toFixed(2)} |`,
    `| ${label}: \`ensure --dry-run\`, same, ${figures.shortCount} of them short | ${figures.shortMs.toFixed(0)} ms | ${figures.readsPerShortAddress.toFixed(2)} per short address |`,
  ];
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const bins = argv.flatMap((arg, i) => (argv[i - 1] === '--bin' ? [resolve(arg)] : []));
  if (bins.length === 0) bins.push(fileURLToPath(new URL('../bin/energy.js', import.meta.url)));
  const rounds = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 5;
  const lines = ['| build: run | time (median) | TRON node requests per address |', '| --- | ---: | ---: |'];
  const results = await measureEnsureScale({ bins, rounds });
  bins.forEach((bin, index) => lines.push(...ensureScaleRows(bin, results[index])));
  console.log(lines.join('\n'));
}
