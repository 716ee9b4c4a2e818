// One simulated day of supply (issue 45): a sandbox whose clock runs SCALE times as fast, one address sending
// 30 USDT transfers an hour, and `ensure --every` (a minute of sandbox time) keeping 65,000 energy on it with
// 1-hour rentals, once with the default --renew-before and once with 0 (renewed once a rental has ended).
// Counted at the sandbox: transfers, those covered by energy, TRX burnt, TRX rented, orders.
//   node bench/supply-day.mjs [--scale 120] [--hours 24] [--energy 130000]
// 120×: a day in 12 minutes. At 240× (6 minutes) a cycle's own time (the order list read back through its
// window, up to 10 pages) is a sandbox minute on a loaded 2-core machine, and the run that reads the list each
// cycle (the renewal's) is slowed more than the other: its transfers burnt 37 TRX against 0.7.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const HOUR_MS = 3_600_000;

/** Plays `hours` of sandbox time for one address at `scale`; renewBefore undefined: the service's default. */
export async function playDay({
  scale = 120,
  hours = 24,
  renewBefore,
  transfersPerHour = 30,
  energy = 130_000,
  node = process.execPath,
}) {
  const { startSandbox } = await import('../dist/sandbox/index.js');
  const { encodeTronAddress } = await import('../dist/domain/address.js');
  const { addAmounts } = await import('../dist/domain/money.js');
  const id = Buffer.alloc(20, 0x45);
  id.writeUInt32BE(renewBefore === undefined ? 1 : 2, 0);
  const address = encodeTronAddress(Buffer.concat([Buffer.from([0x41]), id]));
  const sandbox = await startSandbox({
    timeScale: scale,
    rateLimit: false,
    startingBalance: '100000.000000',
  });
  const work = mkdtempSync(join(os.tmpdir(), 'energy-supply-'));
  const everyMs = Math.max(1, Math.round(60_000 / scale));
  const args = [here('../bin/energy.js'), 'ensure', address, '--energy', String(energy), '--hours', '1'];
  args.push('--every', `${everyMs}ms`, '--yes', '--json');
  if (renewBefore !== undefined) args.push('--renew-before', renewBefore);
  const child = spawn(node, args, {
    env: {
      PATH: process.env.PATH,
      HOME: work,
      ENERGY_CONFIG_DIR: join(work, 'config'),
      ENERGY_STATE_DIR: join(work, 'state'),
      ENERGY_BASE_URL: sandbox.url,
      ENERGY_TRON_NODE: sandbox.url,
      ENERGY_API_KEY: sandbox.apiKey,
      ENERGY_API_SECRET: sandbox.apiSecret,
    },
    stdio: ['ignore', process.env.SUPPLY_OUT ? 'inherit' : 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  try {
    // The traffic starts once the service's first order is delivered: its start-up is not what is measured.
    while (!sandbox.orders().some((order) => order.delivery_final)) {
      if (child.exitCode !== null) throw new Error(`ensure exited ${child.exitCode}: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    sandbox.seedTronAccount(address, { transfersPerHour });
    const startedMs = (await (await fetch(`${sandbox.url}/v1/time`)).json()).unix_time * 1000;
    const started = performance.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`ensure exited ${child.exitCode}: ${stderr}`);
      const { unix_time } = await (await fetch(`${sandbox.url}/v1/time`)).json();
      if (unix_time * 1000 >= startedMs + hours * HOUR_MS) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const [traffic] = sandbox.traffic();
    const orders = sandbox.orders().filter((order) => order.address === address);
    const rented = orders.reduce((sum, order) => addAmounts(sum, order.total_trx), '0.000000');
    return {
      renew_before: renewBefore ?? 'default',
      transfers: traffic.transfers,
      covered: traffic.covered,
      burned_trx: traffic.burned_trx,
      rented_trx: rented,
      orders: orders.length,
      wall_s: Math.round((performance.now() - started) / 1000),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Both runs at once (each its own sandbox and service), so that the day costs the wall time of one. */
export async function measureSupplyDay(options = {}) {
  return Promise.all([playDay({ ...options }), playDay({ ...options, renewBefore: '0' })]);
}

export function supplyRows(results) {
  const [ahead, gaps] = results;
  const more = (Number(ahead.rented_trx) / Number(gaps.rented_trx) - 1) * 100;
  return [
    '| --renew-before | transfers | covered | TRX burnt | TRX rented | orders | wall s |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...results.map(
      (r) =>
        `| ${r.renew_before} | ${r.transfers} | ${r.covered} | ${r.burned_trx} | ${r.rented_trx} | ${r.orders} | ${r.wall_s} |`,
    ),
    '',
    `Rented with the default lead: ${more.toFixed(1)}% more TRX than with 0.`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const value = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
  const results = await measureSupplyDay({
    scale: value('--scale', 120),
    hours: value('--hours', 24),
    energy: value('--energy', 130_000),
  });
  console.log(supplyRows(results).join('\n'));
}
