// A fleet on one machine, for npm run bench (issue 39 item 6): hosts are `energy ensure` processes, each with
// its own state folder, naming one private PostgreSQL (bench/pg-cluster.mjs, PostgreSQL's defaults) and the
// sandbox (in this process, so that its node requests can be counted). Measured:
//   - node reads per address in a service cycle where nothing is short (every address waits for an order on
//     its way): 1;
//   - 4 hosts × 400 addresses against 1 host × 400: node reads per address per cycle across the fleet, and the
//     ratio (goal ≤ 1.2);
//   - the longest transaction and the statements per address per cycle (from the server's statement log:
//     every statement of energy's is its own transaction);
//   - 2 hosts × 7,000 addresses, every one short: every order placed;
//   - API requests per address per interval, 1 host / 4 hosts on addresses waiting for their orders (issue 47);
//   - 4 hosts × 500 short addresses at once, without and with --max-spend (one ledger): time until all bought,
//     statements per order (issue 47).
//   node bench/fleet.mjs [--smoke] [--bin path/to/bin/energy.js] [--api N | --api HOSTSxN] [--spend HOSTSxN]
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFleetHosts } from './fleet-hosts.mjs';

const READS = ['/wallet/getaccountresource', '/wallet/getaccount'];

/** Runs a process to its end; rejects on a non-zero exit. */
function finished(child, what) {
  // Read and dropped: a run's items (7,000 of them) would fill the pipe and stop it.
  child.stdout.resume();
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  return new Promise((done, fail) =>
    child.on('exit', (code, signal) =>
      code === 0 || signal === 'SIGTERM' ? done() : fail(new Error(`${what} exited ${code ?? signal}: ${stderr}`)),
    ),
  );
}

export async function measureFleet({
  node = process.execPath,
  bin,
  smoke = false,
  spendOnly,
  apiOnly,
  say = () => {},
}) {
  // Orders stay on their way for the whole bench: an address bought for then waits, short on chain.
  const hostsWorld = await startFleetHosts({ bin, name: 'fleet', sandboxOptions: { deliverAfterMs: 3_600_000 } });
  if (hostsWorld === undefined) return undefined;
  const { sandbox, cluster, addresses } = hostsWorld;
  const reads = () => READS.reduce((sum, path) => sum + sandbox.requestCount(path), 0);
  // API requests: all the sandbox answered but its TRON node's.
  const apiRequests = () => sandbox.requestCount() - sandbox.tronRequests().length;
  // Pages of the order list (GET /v1/energy/orders; an order by id is another path).
  const listPages = () => sandbox.requestCount('/v1/energy/orders', 'GET');
  // The API's requests by kind; order GETs are the rest (each order's own path).
  const byKind = () => {
    const kinds = {
      time: sandbox.requestCount('/v1/time', 'GET'),
      options: sandbox.requestCount('/v1/energy/options', 'GET'),
      balance: sandbox.requestCount('/v1/balance', 'GET'),
      listPages: listPages(),
      quotes: sandbox.requestCount('/v1/energy/quotes', 'POST'),
      orders: sandbox.requestCount('/v1/energy/orders', 'POST'),
    };
    const named = Object.values(kinds).reduce((sum, n) => sum + n, 0);
    return { ...kinds, orderGets: apiRequests() - named };
  };
  const env = (host) => hostsWorld.env(`state-${host}`);
  const ensure = (host, addresses, extra) =>
    spawn(node, [bin, 'ensure', ...addresses, '--energy', '65000', '--hours', '1', '--yes', '--json', ...extra], {
      env: env(host),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  /**
   * Services on `sets` of addresses, one host each, until each has ended `cycles` more cycles (one NDJSON line
   * each): node reads per address per cycle (a host's cycles, averaged over the hosts), statements likewise.
   */
  const serve = async (sets, everyMs, cycles) => {
    const children = sets.map((addresses, host) => ensure(`s${host}`, addresses, ['--every', `${everyMs}ms`]));
    const ended = children.map((child, host) => finished(child, `host ${host}`));
    // Awaited below; a host that dies early must still reach the cleanup (cluster, sandbox) first.
    for (const end of ended) end.catch(() => undefined);
    const lines = children.map(() => 0);
    // The addresses each cycle decided (not skipped as another host's): what an order GET is asked for.
    let decided = 0;
    const partial = children.map(() => '');
    children.forEach((child, host) =>
      child.stdout.on('data', (chunk) => {
        const text = partial[host] + chunk.toString();
        const whole = text.split('\n');
        partial[host] = whole.pop();
        lines[host] += whole.length;
        for (const line of whole) {
          if (!line.startsWith('{"cycle":')) continue;
          const items = JSON.parse(line).items ?? [];
          decided += items.filter((item) => item.reason !== 'claimed_elsewhere').length;
        }
      }),
    );
    const allPast = (count) =>
      new Promise((done) => {
        const check = setInterval(() => lines.every((n) => n >= count) && (clearInterval(check), done()), 5);
      });
    // Warm: every host has ended its first cycle (process start, getaccount once) before counting.
    await allPast(1);
    const startedMs = performance.now();
    const decidedBefore = decided;
    const [before, log, from, apiBefore, listBefore, kindsBefore] = [
      reads(),
      cluster.logSize(),
      [...lines],
      apiRequests(),
      listPages(),
      byKind(),
    ];
    await allPast(1 + cycles);
    const after = reads();
    const apiAfter = apiRequests();
    const listAfter = listPages();
    const kindsAfter = byKind();
    const ran = lines.reduce((sum, n, host) => sum + n - from[host], 0) / lines.length;
    const wallMs = performance.now() - startedMs;
    const decisions = decided - decidedBefore;
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(ended);
    const addresses = new Set(sets.flat()).size;
    const statements = cluster.statements(log);
    return {
      perAddressCycle: (after - before) / addresses / ran,
      apiPerAddressCycle: (apiAfter - apiBefore) / addresses / ran,
      listPagesPerInterval: (listAfter - listBefore) / ran,
      // The same by the clock: pages per --every of wall time, and a host's mean cycle.
      listPagesPerEvery: ((listAfter - listBefore) * everyMs) / wallMs,
      cycleSeconds: wallMs / 1000 / ran,
      // Order GETs for each address a cycle decided.
      getsPerDecision: decisions === 0 ? 0 : (kindsAfter.orderGets - kindsBefore.orderGets) / decisions,
      decisionsPerInterval: decisions / ran,
      everyMs,
      // The fleet's requests of each kind an interval (a host's cycles, averaged over the hosts).
      kindsPerInterval: Object.fromEntries(
        Object.entries(kindsAfter).map(([kind, n]) => [kind, (n - kindsBefore[kind]) / ran]),
      ),
      statementsPerAddressCycle: statements.length / addresses / ran,
      longestMs: Math.max(0, ...statements),
    };
  };
  /**
   * `hosts` one-shot runs of `perHost` short addresses each at once, with `--max-spend` (one ceiling for all,
   * never reached) between two without: seconds until all bought, statements per order, the longest statement.
   */
  let tag = 0x70;
  const buyingAtOnce = async (hosts, perHost) => {
    const figures = {};
    // Each after the other's orders, so that both read an order list as long: without, with, without again
    // (the two without averaged).
    const runs = [
      ['without', []],
      ['with', ['--max-spend', '1000000000/24h', '--budget', 'fleet']],
      ['again', []],
    ];
    for (const [name, extra] of runs) {
      const sets = Array.from({ length: hosts }, () => addresses(tag++, perHost));
      say(`fleet: ${hosts} hosts × ${perHost} buying at once, ${name === 'with' ? 'with' : 'without'} --max-spend`);
      const [log, ordersBefore, started] = [cluster.logSize(), sandbox.orders().length, Date.now()];
      await Promise.all(sets.map((set, host) => finished(ensure(`${name}${host}`, set, extra), `${name} ${host}`)));
      const statements = cluster.statements(log);
      const placed = sandbox.orders().length - ordersBefore;
      figures[name] = {
        placed,
        seconds: (Date.now() - started) / 1000,
        perOrder: statements.length / placed,
        longestMs: Math.max(0, ...statements),
      };
    }
    const { without, again } = figures;
    const mean = (key) => (without[key] + again[key]) / 2;
    return {
      hosts,
      perHost,
      with: figures.with,
      without: {
        placed: without.placed,
        seconds: mean('seconds'),
        perOrder: mean('perOrder'),
        longestMs: Math.max(without.longestMs, again.longestMs),
      },
    };
  };
  try {
    // `node bench/fleet.mjs --spend 4x500`: that row alone.
    if (spendOnly !== undefined) return { spend: await buyingAtOnce(...spendOnly) };
    // `node bench/fleet.mjs --api 400` (or `--api 8x1000`): API requests per address per interval, 1 host / 4
    // (or 8) hosts on the same addresses that wait for their orders (each cycle reads the list), by kind, those
    // rows alone (issue 47 item 3).
    if (apiOnly !== undefined) {
      const [hosts, size] = apiOnly;
      const waiting = addresses(0x65, size);
      say(`fleet: buying for ${size} addresses`);
      await finished(ensure('buyer', waiting, []), 'the first run');
      say(`fleet: 1 host × ${size}`);
      const one = await serve([waiting], 2_000, 5);
      say(`fleet: ${hosts} hosts × the same ${size}`);
      const many = await serve(
        Array.from({ length: hosts }, () => waiting),
        2_000,
        5,
      );
      return { api: apiFigures(size, one, many, hosts) };
    }
    const size = smoke ? 20 : 400;
    const everyMs = smoke ? 1_000 : 2_000;
    const cycles = smoke ? 2 : 10;
    // Every address bought for once: from now on each is short on chain and waits for its order.
    const waiting = addresses(0x61, size);
    say(`fleet: buying for ${size} addresses`);
    await finished(ensure('buyer', waiting, []), 'the first run');
    say('fleet: a service whose addresses wait');
    const quiet = await serve([waiting], everyMs, cycles);
    say('fleet: four hosts whose addresses wait');
    const quietFour = await serve([waiting, waiting, waiting, waiting], everyMs, cycles);
    // The steady state of a fleet: addresses with enough energy, one host, then four on the same addresses.
    const steady = addresses(0x62, size);
    for (const address of steady) sandbox.seedTronAccount(address, { energy: 65_000 });
    say('fleet: one host');
    const one = await serve([steady], everyMs, cycles);
    say('fleet: four hosts');
    const four = await serve([steady, steady, steady, steady], everyMs, cycles);
    // Two hosts of 7,000 short addresses each, at once: every one bought, on PostgreSQL's default lock table.
    const many = smoke ? 50 : 7_000;
    say(`fleet: 2 hosts × ${many}`);
    const halves = [0x63, 0x64].map((tag) => addresses(tag, many));
    const ordersBefore = sandbox.orders().length;
    const log = cluster.logSize();
    const started = Date.now();
    // The server's lock table, sampled while they run: it must not grow with the addresses.
    let locks = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        locks = Math.max(locks, Number(await cluster.sqlLater('SELECT count(*) FROM pg_locks')));
        await new Promise((done) => setTimeout(done, 100));
      }
    })();
    await Promise.all(
      halves.map((addresses, host) => finished(ensure(`big${host}`, addresses, []), `big host ${host}`)),
    );
    sampling = false;
    await sampler;
    const bigStatements = cluster.statements(log);
    const spend = smoke ? undefined : await buyingAtOnce(4, 500);
    return {
      size,
      everyMs,
      quiet,
      api: apiFigures(size, quiet, quietFour),
      one,
      four,
      big: {
        addresses: 2 * many,
        placed: sandbox.orders().length - ordersBefore,
        seconds: (Date.now() - started) / 1000,
        longestMs: Math.max(0, ...bigStatements),
        statementsPerAddress: bigStatements.length / (2 * many),
        locks,
      },
      spend,
    };
  } finally {
    await hostsWorld.close();
  }
}

export function fleetRows(f) {
  const ratio = f.four.perAddressCycle / f.one.perAddressCycle;
  return [
    `| node reads per address, a service cycle where nothing is short (${f.size} addresses waiting for orders on their way) | ${f.quiet.perAddressCycle.toFixed(2)} | 1 | ${f.quiet.perAddressCycle <= 1.05 ? 'yes' : 'no'} |`,
    `| node reads per address per cycle (--every ${f.everyMs / 1000}s): 1 host × ${f.size} / 4 hosts × the same ${f.size} | ${f.one.perAddressCycle.toFixed(2)} / ${f.four.perAddressCycle.toFixed(2)} (${ratio.toFixed(2)}x) | ≤ 1.2x | ${ratio <= 1.2 ? 'yes' : 'no'} |`,
    `| statements per address per cycle, 1 host / 4 hosts | ${f.one.statementsPerAddressCycle.toFixed(3)} / ${f.four.statementsPerAddressCycle.toFixed(3)} | | |`,
    `| longest statement (each its own transaction): 4 hosts × ${f.size} / 2 hosts × ${(f.big.addresses / 2).toLocaleString('en-US')} buying | ${f.four.longestMs.toFixed(1)} ms / ${f.big.longestMs.toFixed(1)} ms | no transaction open across a network call | |`,
    `| 2 hosts × ${(f.big.addresses / 2).toLocaleString('en-US')} short addresses, default PostgreSQL: orders placed (${f.big.seconds.toFixed(0)} s, ${f.big.statementsPerAddress.toFixed(2)} statements per address) | ${f.big.placed.toLocaleString('en-US')} of ${f.big.addresses.toLocaleString('en-US')} | all | ${f.big.placed === f.big.addresses ? 'yes' : 'no'} |`,
    `| the server's lock table (pg_locks), most entries seen while those 2 hosts ran | ${f.big.locks} | not growing with the addresses | |`,
    ...apiRows(f.api),
    ...(f.spend === undefined ? [] : spendRows(f.spend)),
  ];
}

function apiFigures(size, one, four, hosts = 4) {
  return {
    size,
    hosts,
    one: one.apiPerAddressCycle,
    four: four.apiPerAddressCycle,
    listOne: one.listPagesPerInterval,
    listFour: four.listPagesPerInterval,
    kindsOne: one.kindsPerInterval,
    kindsFour: four.kindsPerInterval,
    clockOne: { pages: one.listPagesPerEvery, cycle: one.cycleSeconds, every: one.everyMs },
    clockFour: { pages: four.listPagesPerEvery, cycle: four.cycleSeconds, every: four.everyMs },
    decidedOne: { gets: one.getsPerDecision, perInterval: one.decisionsPerInterval },
    decidedFour: { gets: four.getsPerDecision, perInterval: four.decisionsPerInterval },
  };
}

/** The requests a host makes for one address: order GETs, quotes, orders (the rest are per host or per fleet). */
const PER_ADDRESS = ['orderGets', 'quotes', 'orders'];
/** What item 3 of issue 47 divides among the hosts: the list's pages, and the per-address requests. */
const DIVIDED = ['listPages', ...PER_ADDRESS];
/** What it allows each host a cycle: the server's clock, the offer, the balance. */
const PER_HOST = ['time', 'options', 'balance'];
const KIND_NAMES = {
  time: 'GET /v1/time',
  options: 'GET /v1/energy/options',
  balance: 'GET /v1/balance',
  listPages: 'list pages (GET /v1/energy/orders)',
  orderGets: 'order GETs (by id)',
  quotes: 'quotes',
  orders: 'orders placed',
};

function ratioText(many, one) {
  return one === 0 ? (many === 0 ? 'none either way' : 'n/a (none alone)') : `${(many / one).toFixed(2)}x`;
}

function apiRows(figures) {
  const { size, hosts, one, four, listOne, listFour, kindsOne, kindsFour, clockOne, clockFour } = figures;
  const { decidedOne, decidedFour } = figures;
  const ratio = four / one;
  const pages = `${listOne.toFixed(2)} / ${listFour.toFixed(2)} list pages an interval`;
  const rows = [
    `| API requests per address per interval, addresses waiting for their orders: 1 host × ${size} / ${hosts} hosts × the same (${pages}) | ${one.toFixed(3)} / ${four.toFixed(3)} (${ratio.toFixed(2)}x) | ≤ 1.2x | ${ratio <= 1.2 ? 'yes' : 'no'} |`,
  ];
  if (kindsOne === undefined) return rows;
  for (const [kind, name] of Object.entries(KIND_NAMES))
    rows.push(
      `| of them, ${name} an interval: 1 host / ${hosts} hosts | ${kindsOne[kind].toFixed(2)} / ${kindsFour[kind].toFixed(2)} (${ratioText(kindsFour[kind], kindsOne[kind])}) | | |`,
    );
  const sum = (kinds, which) => which.reduce((total, kind) => total + kinds[kind], 0);
  const [alone, fleet] = [sum(kindsOne, PER_ADDRESS) / size, sum(kindsFour, PER_ADDRESS) / size];
  const met = alone === 0 ? fleet === 0 : fleet / alone <= 1.2;
  const [dividedOne, dividedMany] = [sum(kindsOne, DIVIDED) / size, sum(kindsFour, DIVIDED) / size];
  const [hostOne, hostMany] = [sum(kindsOne, PER_HOST), sum(kindsFour, PER_HOST)];
  rows.push(
    `| per-address requests alone (order GETs, quotes, orders) per address per interval: 1 host / ${hosts} hosts | ${alone.toFixed(4)} / ${fleet.toFixed(4)} (${ratioText(fleet, alone)}) | ≤ 1.2x | ${met ? 'yes' : 'no'} |`,
    `| what the issue divides (list pages, order GETs, quotes, orders) per address per interval: 1 host / ${hosts} hosts | ${dividedOne.toFixed(4)} / ${dividedMany.toFixed(4)} (${ratioText(dividedMany, dividedOne)}) | ≤ 1.2x | ${dividedOne === 0 ? (dividedMany === 0 ? 'yes' : 'no') : dividedMany / dividedOne <= 1.2 ? 'yes' : 'no'} |`,
    `| the per-host reads it allows (time, options, balance) an interval, all hosts: 1 host / ${hosts} hosts | ${hostOne.toFixed(2)} / ${hostMany.toFixed(2)} (${(hostMany / hosts).toFixed(2)} a host) | ≤ 3 a host | ${hostMany / hosts <= 3 ? 'yes' : 'no'} |`,
  );
  if (decidedOne !== undefined)
    rows.push(
      `| addresses decided an interval (all hosts), and order GETs for each: 1 host / ${hosts} hosts | ${decidedOne.perInterval.toFixed(0)}, ${decidedOne.gets.toFixed(3)} / ${decidedFour.perInterval.toFixed(0)}, ${decidedFour.gets.toFixed(3)} | | |`,
    );
  if (clockOne !== undefined)
    rows.push(
      `| list pages per --every ${clockOne.every / 1000}s of the clock (a host's mean cycle): 1 host / ${hosts} hosts | ${clockOne.pages.toFixed(2)} (${clockOne.cycle.toFixed(2)} s) / ${clockFour.pages.toFixed(2)} (${clockFour.cycle.toFixed(2)} s) | | |`,
    );
  return rows;
}

function spendRows(spend) {
  const { hosts, perHost, without, with: withSpend } = spend;
  return [
    `| ${hosts} hosts × ${perHost} short addresses at once, without / with \`--max-spend\` (one ledger): seconds until all bought | ${without.seconds.toFixed(1)} / ${withSpend.seconds.toFixed(1)} s (${(withSpend.seconds / without.seconds).toFixed(2)}x) | ≤ 1.5x | ${withSpend.seconds <= 1.5 * without.seconds ? 'yes' : 'no'} |`,
    `| the same: statements per order (the longest statement) | ${without.perOrder.toFixed(2)} / ${withSpend.perOrder.toFixed(2)} (${without.longestMs.toFixed(0)} / ${withSpend.longestMs.toFixed(0)} ms) | with ≤ 4 | ${withSpend.perOrder <= 4 ? 'yes' : 'no'} |`,
  ];
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const binArg = argv.indexOf('--bin');
  const bin = binArg === -1 ? fileURLToPath(new URL('../bin/energy.js', import.meta.url)) : resolve(argv[binArg + 1]);
  const spendArg = argv.indexOf('--spend');
  const spendOnly = spendArg === -1 ? undefined : argv[spendArg + 1].split('x').map(Number);
  const apiArg = argv.indexOf('--api');
  // `--api 2000`: 1 host against 4; `--api 8x1000`: against 8.
  const apiSizes = apiArg === -1 ? undefined : argv[apiArg + 1].split('x').map(Number);
  const apiOnly = apiSizes === undefined ? undefined : apiSizes.length === 1 ? [4, apiSizes[0]] : apiSizes;
  const figures = await measureFleet({
    bin,
    smoke: argv.includes('--smoke'),
    spendOnly,
    apiOnly,
    say: (line) => console.error(line),
  });
  if (figures === undefined) console.log('no PostgreSQL on this machine: the fleet is not measured');
  else if (spendOnly !== undefined) console.log(spendRows(figures.spend).join('\n'));
  else if (apiOnly !== undefined)
    console.log(
      [
        '| API requests (this build) | measured | goal | met |',
        '| --- | ---: | ---: | :---: |',
        ...apiRows(figures.api),
      ].join('\n'),
    );
  else
    console.log(
      ['| fleet (this build) | measured | goal | met |', '| --- | ---: | ---: | :---: |', ...fleetRows(figures)].join(
        '\n',
      ),
    );
}
