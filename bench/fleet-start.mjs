// A fleet's cold start, for npm run bench (issue 47 item 2): 4 services (`ensure --every 1m`, each its own
// process and state folder) start at once on the same short addresses, one private PostgreSQL
// (bench/pg-cluster.mjs) and the sandbox in this process. Measured: the orders each host placed in its first
// cycle (its share is a quarter: the aim is none over 1.5×), and the time until every address was bought,
// against the same 4 hosts given a quarter of the list each (split by hand): the aim is within 1.5×.
//   node bench/fleet-start.mjs [--smoke] [--bin path/to/bin/energy.js]
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFleetHosts } from './fleet-hosts.mjs';

const HOSTS = 4;

export async function measureFleetStart({ node = process.execPath, bin, smoke = false, say = () => {} }) {
  // Orders stay on their way for the whole bench: an address bought for is not short again.
  const hostsWorld = await startFleetHosts({ bin, name: 'fleet-start', sandboxOptions: { deliverAfterMs: 3_600_000 } });
  if (hostsWorld === undefined) return undefined;
  const { sandbox, addresses } = hostsWorld;
  const env = (host) => hostsWorld.env(`state-${host}`);
  /** 4 services at once on `lists` (one each): the orders of each one's first cycle, and the time to all bought. */
  const start = async (name, lists) => {
    const wanted = new Set(lists.flat());
    const bought = () => sandbox.orders().filter((order) => wanted.has(order.address)).length;
    const started = performance.now();
    const hosts = lists.map((addresses, host) => {
      const child = spawn(
        node,
        [bin, 'ensure', ...addresses, '--energy', '65000', '--hours', '1', '--yes', '--json', '--every', '1m'],
        { env: env(`${name}-${host}`), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      let err = '';
      child.stderr.on('data', (chunk) => (err = (err + chunk).slice(-4000)));
      const exited = new Promise((done) => child.on('exit', done));
      return {
        child,
        exited,
        stderr: () => err,
        firstCycle: () => out.split('\n').find((line) => line.startsWith('{"cycle":1')),
      };
    });
    let doneMs;
    while (hosts.some((host) => host.firstCycle() === undefined)) {
      if (doneMs === undefined && bought() >= wanted.size) doneMs = performance.now() - started;
      if (performance.now() - started > 600_000) break;
      await new Promise((done) => setTimeout(done, 20));
    }
    doneMs ??= bought() >= wanted.size ? performance.now() - started : undefined;
    for (const host of hosts) host.child.kill('SIGTERM');
    await Promise.all(hosts.map((host) => host.exited));
    const byHost = hosts.map((host) => {
      const line = host.firstCycle();
      const cycle = line === undefined ? undefined : JSON.parse(line);
      if (cycle?.error !== undefined) say(`${name} host: first cycle failed: ${cycle.error.message}`);
      if (cycle === undefined) say(`${name} host: no first cycle: ${host.stderr()}`);
      return cycle === undefined ? 0 : cycle.items.filter((item) => item.reason === 'bought').length;
    });
    return { byHost, seconds: doneMs === undefined ? undefined : doneMs / 1000, bought: bought(), wanted: wanted.size };
  };
  try {
    const size = smoke ? 60 : 1_000;
    const together = addresses(0x71, size);
    say(`fleet start: ${HOSTS} hosts × the same ${size} short addresses`);
    const shared = await start(
      'shared',
      Array.from({ length: HOSTS }, () => together),
    );
    const apart = addresses(0x72, size);
    const quarter = Math.ceil(size / HOSTS);
    say(`fleet start: ${HOSTS} hosts × ${quarter} of ${size} (split by hand)`);
    const split = await start(
      'split',
      Array.from({ length: HOSTS }, (_, host) => apart.slice(host * quarter, (host + 1) * quarter)),
    );
    return { size, shared, split };
  } finally {
    await hostsWorld.close();
  }
}

export function fleetStartRows(f) {
  const share = f.size / HOSTS;
  const most = Math.max(...f.shared.byHost);
  const ratio =
    f.shared.seconds !== undefined && f.split.seconds !== undefined ? f.shared.seconds / f.split.seconds : undefined;
  const seconds = (run) =>
    run.seconds === undefined ? `not all (${run.bought} of ${run.wanted})` : `${run.seconds.toFixed(1)} s`;
  return [
    `| a fleet's start, ${HOSTS} hosts × the same ${f.size.toLocaleString('en-US')} short addresses (--every 1m): orders by host in the first cycle | ${f.shared.byHost.join(' / ')} (most ${(most / share).toFixed(2)}× a share) | none over 1.5× its share (${Math.floor(1.5 * share)}) | ${most <= 1.5 * share ? 'yes' : 'no'} |`,
    `| time to all bought: together / split by hand (${HOSTS} × ${Math.ceil(f.size / HOSTS)}) | ${seconds(f.shared)} / ${seconds(f.split)}${ratio === undefined ? '' : ` (${ratio.toFixed(2)}x)`} | ≤ 1.5x | ${ratio !== undefined && ratio <= 1.5 ? 'yes' : 'no'} |`,
  ];
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const binArg = argv.indexOf('--bin');
  const bin = binArg === -1 ? fileURLToPath(new URL('../bin/energy.js', import.meta.url)) : resolve(argv[binArg + 1]);
  const figures = await measureFleetStart({ bin, smoke: argv.includes('--smoke'), say: (line) => console.error(line) });
  if (figures === undefined) console.log("no PostgreSQL on this machine: the fleet's start is not measured");
  else
    console.log(
      [
        '| fleet start (this build) | measured | goal | met |',
        '| --- | ---: | ---: | :---: |',
        ...fleetStartRows(figures),
      ].join('\n'),
    );
}
