#!/usr/bin/env node
// npm run bench: start-up, request and streaming costs of `energy`, each as a ratio against a baseline timed
// in the same run, rounds interleaved so that a noisy shared machine slows both sides alike.
//   node bench/run.mjs [--smoke] [--write] [--no-list] [--startup] [--install-nodes] [--node /path/to/node] [--bin /path/to/bin/energy.js]
// --startup: the start-up figures only (--version, --help, the read commands), a few minutes.
// balance and time are timed on every Node line CI tests (startup.mjs): this Node, those in BENCH_NODES, or
// with --install-nodes the node@22/24/26 packages; a line it cannot have is skipped and said.
// --smoke: one round over 1,000 orders, to prove the harness works (CI); --write: record bench/RESULTS.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve as absolutePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORDER_CREATE, measureBatch } from './batch-cost.mjs';
import { ensureScaleRows, measureEnsureScale } from './ensure-scale.mjs';
import { fleetRows, measureFleet } from './fleet.mjs';
import { ledgerRows, measureLedger } from './ledger.mjs';
import { folderLedgerRows, measureFolderLedger } from './folder-ledger.mjs';
import { fleetStartRows, measureFleetStart } from './fleet-start.mjs';
import { fleetCyclesRows, measureFleetCycles } from './fleet-cycles.mjs';
import { measureSupplyDay, supplyRows } from './supply-day.mjs';
import { journalMsPerOrder } from './journal-cost.mjs';
import { measureServiceRss } from './service-rss.mjs';
import { measureStartup, startupTables } from './startup.mjs';

const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
// --no-list: start-up and read commands only (quicker while working on them).
const skipList = argv.includes('--no-list');
const startupOnly = argv.includes('--startup');
const nodeOption = argv.includes('--node') ? argv[argv.indexOf('--node') + 1] : undefined;
// Paths made absolute: the timed runs happen in another folder (cpu-time.mjs's NEUTRAL_CWD).
const node =
  nodeOption === undefined ? process.execPath : nodeOption.includes('/') ? absolutePath(nodeOption) : nodeOption;
const rounds = smoke ? 1 : 21;
const listRounds = smoke ? 1 : 5;
const orderCount = smoke || skipList ? 1_000 : 100_000;
const here = (path) => fileURLToPath(new URL(path, import.meta.url));
// --bin <path>: measure another build (e.g. an older checkout's bin/energy.js) with this harness.
const bin = argv.includes('--bin') ? absolutePath(argv[argv.indexOf('--bin') + 1]) : here('../bin/energy.js');

const work = mkdtempSync(join(os.tmpdir(), 'energy-bench-'));
const env = {
  PATH: process.env.PATH,
  HOME: work,
  ENERGY_CONFIG_DIR: join(work, 'config'),
  ENERGY_API_KEY: 'bench_key_0123456789',
  ENERGY_API_SECRET: 'bench-secret-0123456789abcdef',
  BENCH_PAGE_LIMIT: '100',
};

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timeOnce(args, extraEnv = {}) {
  const started = process.hrtime.bigint();
  // An env with BENCH_ONLY set replaces the shared one (the profile cases must not see ENERGY_API_*).
  const childEnv = extraEnv.BENCH_ONLY ? extraEnv : { ...env, ...extraEnv };
  const result = spawnSync(node, args, { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return ms;
}

/** Runs each case `count` times, interleaved; returns the median milliseconds per case. */
function measure(cases, count) {
  const samples = cases.map(() => []);
  for (const c of cases) timeOnce(c.args, c.env); // warm the file cache and the compile cache
  for (let round = 0; round < count; round += 1) {
    cases.forEach((c, index) => samples[index].push(timeOnce(c.args, c.env)));
  }
  return samples.map(median);
}

// 100 addresses that already hold 65,000 energy on the sandbox's TRON node: the steady state of an
// `ensure` cron job, where every run reads the chain and buys nothing.
const { encodeTronAddress } = await import('../dist/domain/address.js');
const ensureAddresses = Array.from({ length: 100 }, (_, i) => {
  const id = Buffer.alloc(20, 0x42);
  id.writeUInt32BE(i, 0);
  return encodeTronAddress(Buffer.concat([Buffer.from([0x41]), id]));
});

// Two addresses the sandbox knows nothing of: a service buys for them once, then counts them in flight.
const serviceShortAddresses = [0, 1].map((i) => {
  const id = Buffer.alloc(20, 0x43);
  id.writeUInt32BE(i, 0);
  return encodeTronAddress(Buffer.concat([Buffer.from([0x41]), id]));
});

async function startSandbox() {
  const seeds = ensureAddresses.flatMap((address) => ['--seed-address', `${address}:energy=65000`]);
  const child = spawn(
    node,
    [
      bin,
      'sandbox',
      '--port',
      '0',
      '--no-save',
      '--no-rate-limit',
      '--balance',
      '100000000',
      '--seed-orders',
      String(orderCount),
      ...seeds,
      '--json',
    ],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  return { child, url: JSON.parse(line).base_url };
}

function peakRssMb(args, extraEnv = {}) {
  const file = join(work, 'rss');
  timeOnce(['--import', here('./report-rss.mjs'), ...args], { ...extraEnv, BENCH_RSS_FILE: file });
  return Number(readFileSync(file, 'utf8')) / 1024;
}

function lineCount(args) {
  const result = spawnSync(node, args, { env, maxBuffer: 1 << 30, encoding: 'utf8' });
  return result.stdout.trimEnd().split('\n').length;
}

function itemCount(args) {
  const result = spawnSync(node, args, { env, maxBuffer: 1 << 30, encoding: 'utf8' });
  return JSON.parse(result.stdout).items.length;
}

/** Thrown past the later measures by --startup. */
class StartupOnly extends Error {}

const sandbox = await startSandbox();
env.ENERGY_BASE_URL = sandbox.url;
const rows = [];
const rssRows = [];
try {
  const [bare, version, help] = measure(
    [{ args: ['-e', ''] }, { args: [bin, '--version'] }, { args: [bin, '--help'] }],
    rounds,
  );
  rows.push(['energy --version', version, 'node -e ""', bare, 1.1]);
  rows.push(['energy --help', help, 'node -e ""', bare, 1.25]);

  const [bareGet, balance] = measure(
    [{ args: [here('./bare-balance.cjs')] }, { args: [bin, 'balance', '--json'] }],
    rounds,
  );
  rows.push(['energy balance --json (settings from the environment)', balance, 'node:http signed GET', bareGet, 1.3]);

  // The TRON node path: the sandbox answers /wallet/... too; the address is not seeded, so it reads as {}.
  const tronEnv = { ENERGY_TRON_NODE: sandbox.url };
  const probe = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
  const [bareAddress, address] = measure(
    [
      { args: [here('./bare-address.mjs'), probe], env: tronEnv },
      { args: [bin, 'address', probe, '--json'], env: tronEnv },
    ],
    rounds,
  );
  rows.push(['energy address --json', address, 'node:http one POST', bareAddress, 2.0]);

  const [bareEnsure, ensure] = measure(
    [
      { args: [here('./bare-ensure.mjs'), ...ensureAddresses], env: tronEnv },
      {
        args: [bin, 'ensure', ...ensureAddresses, '--energy', '65000', '--hours', '1', '--yes', '--json'],
        env: tronEnv,
      },
    ],
    rounds,
  );
  rows.push(['energy ensure, 100 addresses with enough', ensure, 'node:http 100 POSTs, 8 at a time', bareEnsure, 2.0]);

  // From a config profile, as the README teaches (`energy config set …`): every read command, JSON and table.
  const profileEnv = { BENCH_ONLY: '1', PATH: process.env.PATH, HOME: work, ENERGY_CONFIG_DIR: join(work, 'profile') };
  mkdirSync(profileEnv.ENERGY_CONFIG_DIR, { mode: 0o700 });
  const profile = { 'base-url': sandbox.url, 'api-key': env.ENERGY_API_KEY, 'api-secret': env.ENERGY_API_SECRET };
  writeFileSync(join(profileEnv.ENERGY_CONFIG_DIR, 'config.json'), JSON.stringify({ profiles: { default: profile } }), {
    mode: 0o600,
  });
  const orderId = JSON.parse(
    spawnSync(node, [bin, 'order', 'list', '--limit', '1', '--json'], { env, encoding: 'utf8' }).stdout,
  ).items[0].id;
  // balance and time: on every Node line, as CPU against the CommonJS floor (startup.mjs, below).
  const reads = [
    ['options'],
    ['quote', 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY', '--energy', '65000', '--hours', '1'],
    ['order', 'get', orderId],
    ['order', 'list'],
  ];
  const profileCases = reads.flatMap((command) => [
    { name: `${command.slice(0, 2).join(' ')} --json`, args: [bin, ...command, '--json'], env: profileEnv, goal: 1.3 },
    { name: `${command.slice(0, 2).join(' ')} (table)`, args: [bin, ...command], env: profileEnv, goal: 1.4 },
  ]);
  const [bareGet2, ...profileTimes] = measure([{ args: [here('./bare-balance.cjs')] }, ...profileCases], rounds);
  profileCases.forEach((c, index) => {
    rows.push([
      `energy ${c.name.replace(/^quote \S+/, 'quote')}, from a profile`,
      profileTimes[index],
      'node:http signed GET',
      bareGet2,
      c.goal,
    ]);
  });

  // Memory at start-up: a code cache must not cost it (issue 34).
  const balanceRss = peakRssMb([bin, 'balance', '--json'], profileEnv);
  const bareRss = peakRssMb([here('./bare-balance.cjs')]);
  rssRows.push(
    `| peak RSS of balance --json, from a profile | ${balanceRss.toFixed(1)} MB | node:http signed GET | ${bareRss.toFixed(1)} MB | | | |`,
  );
  // balance and time from a profile on every Node line, against the CommonJS floor, and a stateful command
  // with a state URL against the state folder (issue 48): startup.mjs and state-url.mjs.
  var startupText = startupTables(
    await measureStartup({
      bin,
      rounds: smoke ? 1 : 31,
      phaseRuns: smoke ? 1 : 9,
      install: argv.includes('--install-nodes'),
      onlyThisNode: smoke,
      stateUrl: true,
    }),
  ).join('\n');
  if (startupOnly) throw new StartupOnly();
  if (!skipList) {
    // `--all` as users type it: no --limit, so the CLI's own page size (1,000, stepping down to the 100 the
    // sandbox allows after one 400); the bare loop asks for 100 a page from the start.
    const listArgs = [bin, 'order', 'list', '--all', '--json'];
    const tableArgs = [bin, 'order', 'list', '--all'];
    const bareListArgs = [here('./bare-list-all.mjs')];
    const counts = [itemCount(listArgs), itemCount(bareListArgs), lineCount(tableArgs) - 1];
    if (counts.some((count) => count !== orderCount))
      throw new Error(`expected ${orderCount} orders, got ${counts.join(', ')}`);
    const [bareList, list, table] = measure(
      [{ args: bareListArgs }, { args: listArgs }, { args: tableArgs }],
      listRounds,
    );
    const label = `${orderCount.toLocaleString('en-US')} orders, 100 a page`;
    rows.push([`energy order list --all --json (${label})`, list, 'node:http page loop', bareList, 1.5]);
    rows.push([`energy order list --all, table (${label})`, table, 'node:http page loop', bareList, 1.5]);
    const bareRss = peakRssMb(bareListArgs);
    for (const [name, args] of [
      ['order list --all --json', listArgs],
      ['order list --all (table)', tableArgs],
      // Sums as it streams: each order's id kept in 16 bytes to count it once (issue 39 item 3).
      ['spend --json', [bin, 'spend', '--json']],
    ]) {
      const rss = peakRssMb(args);
      rssRows.push(
        `| peak RSS of ${name} | ${rss.toFixed(1)} MB | bare page loop | ${bareRss.toFixed(1)} MB | | ≤ 120 MB | ${rss <= 120 ? 'yes' : 'no'} |`,
      );
    }
  }

  // The journal: its own work per order beside a whole order, both on this run's disk. One order first,
  // delivered, so that the address's activation fee cannot vanish between a timed run's quote and order.
  timeOnce([bin, ...ORDER_CREATE]);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  const [create] = measure(
    [
      {
        args: [bin, ...ORDER_CREATE],
      },
    ],
    rounds,
  );
  var journalRow = { create, journal: await journalMsPerOrder(work, smoke ? 20 : 200) };
  // `ensure` at a cron job's size: its own sandbox in this process, so that the node requests can be counted.
  var [ensureScale] = await measureEnsureScale({ node, bins: [bin], rounds: smoke ? 1 : 5 });
  // A fleet on PostgreSQL (issue 39): hosts as processes, claims with leases; skipped where PostgreSQL is missing.
  var fleet = await measureFleet({ node, bin, smoke });
  // The --max-spend ledger in PostgreSQL at 0 / 100k / 300k orders in its window (issue 47).
  var ledger = await measureLedger({ node, bin, smoke });
  // The same in a state folder: the log, its checkpoint, what a run reads of them (issue 47).
  var folderLedger = await measureFolderLedger({ node, bin, smoke });
  var fleetStart = await measureFleetStart({ node, bin, smoke });
  // 8 services × 1,000 addresses each, their cycles without and with --max-spend (issue 47).
  var fleetCycles = await measureFleetCycles({ node, bin, smoke });
  // A day of supply (issue 45) on a sandbox at 120× (12 min), renewed ahead and at the end: an hour with --smoke.
  var supply = await measureSupplyDay({ node, scale: 120, hours: smoke ? 1 : 24 });
  var batch = await measureBatch({
    node,
    bin,
    env: { ...env, ENERGY_STATE_DIR: join(work, 'state') },
    work,
    orders: smoke ? 100 : 1000,
    samples: smoke ? 3 : 21,
    rssLines: smoke ? 1000 : 100_000,
    reportRss: here('./report-rss.mjs'),
  });
  // 20 addresses with enough (chain reads only) and 2 short ones (the order list, quotes and orders, then
  // in flight): what a service does all day. RSS after 10 and 1,000 cycles, and 3,000 to show the plateau
  // (V8's heap grows to its working size over the first few hundred cycles, then stays).
  const marks = smoke ? [10, 100, 200] : [10, 1000, 3000];
  var service = await measureServiceRss({
    node,
    bin,
    env: { ...env, ENERGY_STATE_DIR: join(work, 'service-state'), ENERGY_TRON_NODE: sandbox.url },
    addresses: [...ensureAddresses.slice(0, 20), ...serviceShortAddresses],
    cycles: marks.at(-1),
    marks,
  });
  // The same service watched (issue 26): metrics served and scraped, the balance read each cycle.
  var watched = await measureServiceRss({
    node,
    bin,
    env: { ...env, ENERGY_STATE_DIR: join(work, 'watched-state'), ENERGY_TRON_NODE: sandbox.url },
    addresses: [...ensureAddresses.slice(0, 20), ...serviceShortAddresses],
    cycles: marks.at(-1),
    marks,
    extra: ['--metrics', '0', '--min-balance', '1'],
  });
} catch (error) {
  if (!(error instanceof StartupOnly)) throw error;
} finally {
  // Waited for: at its exit, a child may still write into work/ (its code cache).
  const exited = new Promise((resolve) => sandbox.child.once('exit', resolve));
  sandbox.child.kill('SIGTERM');
  await exited;
  rmSync(work, { recursive: true, force: true });
}

const fmt = (ms) => ms.toFixed(1);
const lines = [
  '| measure | energy (ms) | baseline | baseline (ms) | ratio | goal | met |',
  '| --- | ---: | --- | ---: | ---: | ---: | :---: |',
  ...rows.map(([name, ours, baseName, base, goal]) => {
    const ratio = ours / base;
    return `| ${name} | ${fmt(ours)} | ${baseName} | ${fmt(base)} | ${ratio.toFixed(2)}x | ≤ ${goal}x | ${ratio <= goal ? 'yes' : 'no'} |`;
  }),
  ...(startupOnly ? rssRows : []),
];
if (!startupOnly)
  lines.push(
    `| journal write + settle per order (3 fsyncs) | ${fmt(journalRow.journal)} | whole \`order create --yes\` | ${fmt(journalRow.create)} | ${(journalRow.journal / journalRow.create).toFixed(2)}x | ≤ 5 ms | ${journalRow.journal <= 5 ? 'yes' : 'no'} |`,
    ...[1, 4, 16].map((c) => {
      const invocations = batch.perInvocationMs * batch.orders;
      const ratio = invocations / batch.batchMs[c];
      return `| ${batch.orders} orders: one \`order batch --concurrency ${c}\` (${(batch.orders / (batch.batchMs[c] / 1000)).toFixed(0)} orders/s) | ${fmt(batch.batchMs[c])} | ${batch.orders} × \`order create --yes\` (${fmt(batch.perInvocationMs)} ms each, median of ${batch.invocationsSampled}) | ${fmt(invocations)} | ${ratio.toFixed(1)}x faster | ≥ 25x${c === 4 ? ' (default)' : ''} | ${ratio >= 25 ? 'yes' : 'no'} |`;
    }),
    `| peak RSS of a ${batch.rssLines.toLocaleString('en-US')}-line \`order batch --dry-run\` | ${batch.rssMb.toFixed(1)} MB | | | | ≤ 150 MB | ${batch.rssMb <= 150 ? 'yes' : 'no'} |`,
    ...rssRows,
    ...[
      [service, ''],
      [watched, ' with --metrics (scraped) and --min-balance'],
    ].map(([measured, what]) => {
      const [first, middle, last] = Object.values(measured.rss);
      const [, m, l] = Object.keys(measured.rss);
      return `| RSS of \`ensure --every 1ms\`${what} (22 addresses, 2 bought for) after 10 / ${m} / ${l} cycles (${measured.seconds.toFixed(0)} s) | ${[first, middle, last].map((mb) => mb.toFixed(1)).join(' / ')} MB | | | | flat from ${m} to ${l} (≤ +5 MB) | ${last - middle <= 5 ? 'yes' : 'no'} |`;
    }),
  );
if (!startupOnly)
  lines.push(
    '',
    '| `ensure` at scale (this build) | time (median) | TRON node requests per address |',
    '| --- | ---: | ---: |',
    ...ensureScaleRows('energy', ensureScale),
    ...(fleet === undefined
      ? []
      : [
          '',
          '| a fleet on PostgreSQL (this build) | measured | goal | met |',
          '| --- | ---: | ---: | :---: |',
          ...fleetRows(fleet),
          ...(fleetStart === undefined ? [] : fleetStartRows(fleetStart)),
          ...(fleetCycles === undefined ? [] : fleetCyclesRows(fleetCycles)),
        ]),
    ...(ledger === undefined
      ? []
      : [
          '',
          '| the --max-spend ledger in PostgreSQL (this build) | measured | goal | met |',
          '| --- | ---: | ---: | :---: |',
          ...ledgerRows(ledger),
        ]),
    '',
    '| the --max-spend ledger in a state folder (this build) | measured | goal | met |',
    '| --- | ---: | ---: | :---: |',
    ...folderLedgerRows(folderLedger),
    '',
    'A day of supply (this build): 30 USDT transfers an hour from one address, 1-hour rentals, `--every` a minute, a sandbox at 120×:',
    '',
    ...supplyRows(supply),
  );
if (typeof startupText === 'string') lines.push('', startupText);
const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
const header = `Node ${nodeVersion}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}; medians of ${rounds} interleaved runs (${listRounds} for the listing)${smoke ? ' — SMOKE run, numbers not meaningful' : ''}`;
console.log(`\n${header}\n\n${lines.join('\n')}\n`);

if (argv.includes('--write') && !smoke && !startupOnly) {
  const file = here('./RESULTS.md');
  const previous = (() => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '# Benchmark results\n\nWritten by `npm run bench` (`node bench/run.mjs --write`); newest first. Ratios are what count: each baseline is timed in the same run on the same machine.\n';
    }
  })();
  const [title, ...rest] = previous.split('\n## ');
  const section = `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${nodeVersion}\n\n${header}\n\n${lines.join('\n')}\n`;
  writeFileSync(file, [title.trimEnd() + '\n', section, ...rest.map((r) => `## ${r}`)].join('\n'));
  console.log(`written to ${file}`);
}
