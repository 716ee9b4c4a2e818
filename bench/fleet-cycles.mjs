// A fleet's service cycle under a spend ceiling, for npm run bench (issue 47 item 6): H services (`ensure
// --every`, each its own process and state folder) over their own short addresses, one private PostgreSQL
// (bench/pg-cluster.mjs) and the sandbox in this process; without `--max-spend`, with it (one ledger for the
// fleet, a ceiling never reached), then without again, because the account's order list grows between runs
// (the two without averaged). Each run's first cycle buys for every address; orders are delivered a second
// later and the rentals outlast the run, so the cycles after it are the steady state: every address read and
// decided (enough, its rental delivered), the orders' final outcomes settled. Measured over the `cycles`
// cycles of each host after its first: the cycle's duration, from the `at` of its --json line (its start, by
// this machine's wall clock, as this process reads it) to the line's arrival here, p50 and p95; and the
// statements of the whole run (the server's statement log: the buying cycle, the steady cycles with the
// orders' final outcomes) per order placed, and split at the moment every host had ended its first cycle.
//   node bench/fleet-cycles.mjs [--smoke] [--bin path/to/bin/energy.js] [--size HOSTSxN] [--cycles N]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFleetHosts } from './fleet-hosts.mjs';

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

export async function measureFleetCycles({
  node = process.execPath,
  bin,
  smoke = false,
  hosts = smoke ? 2 : 8,
  perHost = smoke ? 20 : 1_000,
  cycles = smoke ? 2 : 10,
  everyMs = smoke ? 1_000 : 3_000,
  say = () => {},
}) {
  // Delivered a second after the order; the rented hour is a real hour, longer than the run.
  const hostsWorld = await startFleetHosts({ bin, name: 'fleet-cycles', sandboxOptions: { deliverAfterMs: 1_000 } });
  if (hostsWorld === undefined) return undefined;
  const { sandbox, cluster, addresses } = hostsWorld;
  const env = (host) => hostsWorld.env(`state-${host}`);
  const requests = () => {
    const node = sandbox.tronRequests().length;
    return { node, api: sandbox.requestCount() - node };
  };
  /** One run: `hosts` services on addresses of their own until each has ended 1 + `cycles` cycles. */
  let tag = 0x80;
  const run = async (name, extra) => {
    const sets = Array.from({ length: hosts }, () => addresses(tag++, perHost));
    const [log, ordersBefore, started] = [cluster.logSize(), sandbox.orders().length, performance.now()];
    const services = sets.map((addresses, host) => {
      const child = spawn(
        node,
        [bin, 'ensure', ...addresses, '--energy', '65000', '--hours', '1', '--yes', '--json'].concat(
          ['--every', `${everyMs}ms`],
          extra,
        ),
        { env: env(`${name}-${host}`), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const service = { child, cycles: [], failed: 0, stderr: '', rest: '' };
      child.stdout.on('data', (chunk) => {
        const arrived = Date.now();
        const lines = (service.rest + chunk).split('\n');
        service.rest = lines.pop();
        for (const line of lines.filter((text) => text.startsWith('{"cycle":'))) {
          const cycle = JSON.parse(line);
          if (cycle.error !== undefined) service.failed += 1;
          service.cycles.push({
            at: cycle.at,
            arrived,
            ms: arrived - Date.parse(cycle.at),
            bought: cycle.items.filter((i) => i.reason === 'bought').length,
          });
        }
      });
      child.stderr.on('data', (chunk) => (service.stderr = (service.stderr + chunk).slice(-4000)));
      service.exited = new Promise((done) => child.on('exit', (code, signal) => done(code ?? signal)));
      return service;
    });
    const deadline = performance.now() + (smoke ? 120_000 : 1_800_000);
    // Where the log stood once every host had ended its first cycle (the one that bought): the statements
    // before are the buying's, those after the steady state's (a host's second cycle may start a little before).
    let steadyLog;
    let steadyRequests;
    let steadyFrom;
    while (services.some((s) => s.cycles.length < 1 + cycles)) {
      if (steadyLog === undefined && services.every((s) => s.cycles.length >= 1))
        [steadyLog, steadyRequests, steadyFrom] = [cluster.logSize(), requests(), services.map((s) => s.cycles.length)];
      const dead = services.find((s) => s.child.exitCode !== null);
      if (dead !== undefined || performance.now() > deadline) {
        for (const s of services) s.child.kill('SIGTERM');
        throw new Error(
          `${name}: a host ${dead === undefined ? 'too slow' : 'ended'}: ${(dead ?? services[0]).stderr}`,
        );
      }
      await new Promise((done) => setTimeout(done, 20));
    }
    const endRequests = requests();
    // The cycles the hosts ended meanwhile: the faster ones end more than `cycles` while the slowest ends its own.
    const steadyCycles = services.reduce((sum, s, host) => sum + s.cycles.length - (steadyFrom?.[host] ?? 1), 0);
    for (const s of services) s.child.kill('SIGTERM');
    await Promise.all(services.map((s) => s.exited));
    const statements = cluster.statements(log);
    const steadyCount = cluster.statements(steadyLog ?? cluster.logSize()).length;
    const placed = sandbox.orders().length - ordersBefore;
    if (process.env.ENERGY_BENCH_PG_KEEP)
      writeFileSync(
        join(process.env.ENERGY_BENCH_PG_KEEP, `cycles-${name}-${Date.now()}.json`),
        JSON.stringify(services.map((s) => ({ pid: s.child.pid, cycles: s.cycles }))),
      );
    const steady = services.flatMap((s) => s.cycles.slice(1, 1 + cycles).map((c) => c.ms));
    return {
      placed,
      wanted: hosts * perHost,
      firstS: Math.max(...services.map((s) => s.cycles[0].ms)) / 1000,
      boughtLater: services.reduce((sum, s) => sum + s.cycles.slice(1).reduce((n, c) => n + c.bought, 0), 0),
      failed: services.reduce((sum, s) => sum + s.failed, 0),
      // The slowest host's duration of each cycle, the buying one first (seconds): where the p95 comes from.
      byCycle: Array.from({ length: 1 + cycles }, (_, i) =>
        Number((Math.max(...services.map((s) => s.cycles[i].ms)) / 1000).toFixed(2)),
      ),
      p50: quantile(steady, 0.5) / 1000,
      p95: quantile(steady, 0.95) / 1000,
      // The steady cycles' requests per address a cycle: the API's (order GETs of orders the list's reading did
      // not hold, mostly) and the TRON node's.
      apiPerAddressCycle: (endRequests.api - (steadyRequests?.api ?? 0)) / (perHost * steadyCycles),
      nodePerAddressCycle: (endRequests.node - (steadyRequests?.node ?? 0)) / (hosts * perHost * cycles),
      perOrder: statements.length / placed,
      buyingPerOrder: (statements.length - steadyCount) / placed,
      steadyPerAddressCycle: steadyCount / (hosts * perHost * cycles),
      longestMs: Math.max(0, ...statements),
      seconds: (performance.now() - started) / 1000,
    };
  };
  try {
    const figures = {};
    const runs = [
      ['without', []],
      ['with', ['--max-spend', '1000000000/24h', '--budget', 'fleet']],
      ['again', []],
    ];
    for (const [name, extra] of runs) {
      say(`fleet cycles: ${hosts} services × ${perHost}, ${name === 'with' ? 'with' : 'without'} --max-spend`);
      figures[name] = await run(name, extra);
      say(`fleet cycles: ${name}: ${JSON.stringify(figures[name])}`);
    }
    return { hosts, perHost, cycles, everyMs, ...figures };
  } finally {
    await hostsWorld.close();
  }
}

export function fleetCyclesRows(f) {
  const { hosts, perHost, cycles, everyMs, without, again } = f;
  const spend = f.with;
  const mean = (key) => (without[key] + again[key]) / 2;
  const [p50, p95, perOrder] = [mean('p50'), mean('p95'), mean('perOrder')];
  const ratio = spend.p95 / p95;
  const [buying, steady] = [mean('buyingPerOrder'), mean('steadyPerAddressCycle')];
  const size = `${hosts} services × ${perHost.toLocaleString('en-US')}`;
  const failed = without.failed + spend.failed + again.failed;
  return [
    `| ${size} (--every ${everyMs / 1000}s, ${cycles} cycles each after the one that bought): cycle p50 / p95 without \`--max-spend\` (two runs averaged) | ${p50.toFixed(2)} / ${p95.toFixed(2)} s (${without.p95.toFixed(2)} and ${again.p95.toFixed(2)}) | | |`,
    `| the same with \`--max-spend\` (one ledger, never reached): cycle p50 / p95 | ${spend.p50.toFixed(2)} / ${spend.p95.toFixed(2)} s (p95 ${ratio.toFixed(2)}x) | ≤ 1.5x | ${ratio <= 1.5 ? 'yes' : 'no'} |`,
    `| the same: statements per order, without / with (the longest statement; the first cycle, all bought, ${mean('firstS').toFixed(1)} / ${spend.firstS.toFixed(1)} s) | ${perOrder.toFixed(2)} / ${spend.perOrder.toFixed(2)} (${Math.max(without.longestMs, again.longestMs).toFixed(0)} / ${spend.longestMs.toFixed(0)} ms) | with ≤ 4 | ${spend.perOrder <= 4 ? 'yes' : 'no'} |`,
    `| of them, the buying cycle's per order / the steady cycles' per address a cycle, without / with | ${buying.toFixed(2)} / ${spend.buyingPerOrder.toFixed(2)}; ${steady.toFixed(3)} / ${spend.steadyPerAddressCycle.toFixed(3)} | | |`,
    `| the steady cycles' API / TRON node requests per address a cycle, without / with | ${mean('apiPerAddressCycle').toFixed(2)} / ${spend.apiPerAddressCycle.toFixed(2)}; ${mean('nodePerAddressCycle').toFixed(2)} / ${spend.nodePerAddressCycle.toFixed(2)} | | |`,
    `| the same: orders placed of those wanted, bought again after the first cycle, failed cycles | ${without.placed + spend.placed + again.placed} of ${3 * hosts * perHost}, ${without.boughtLater + spend.boughtLater + again.boughtLater}, ${failed} | all, 0, 0 | ${without.placed + spend.placed + again.placed === 3 * hosts * perHost && failed === 0 ? 'yes' : 'no'} |`,
  ];
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const binArg = argv.indexOf('--bin');
  const bin = binArg === -1 ? fileURLToPath(new URL('../bin/energy.js', import.meta.url)) : resolve(argv[binArg + 1]);
  const sizeArg = argv.indexOf('--size');
  const [hosts, perHost] = sizeArg === -1 ? [] : argv[sizeArg + 1].split('x').map(Number);
  const cyclesArg = argv.indexOf('--cycles');
  const figures = await measureFleetCycles({
    bin,
    smoke: argv.includes('--smoke'),
    hosts,
    perHost,
    cycles: cyclesArg === -1 ? undefined : Number(argv[cyclesArg + 1]),
    say: (line) => console.error(line),
  });
  if (figures === undefined) console.log("no PostgreSQL on this machine: the fleet's cycles are not measured");
  else
    console.log(
      [
        '| fleet cycles (this build) | measured | goal | met |',
        '| --- | ---: | ---: | :---: |',
        ...fleetCyclesRows(figures),
      ].join('\n'),
    );
}
