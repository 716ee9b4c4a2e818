// The --max-spend ledger in PostgreSQL as the fleet's grows, for npm run bench (issue 47 item 1): one
// `energy ensure --max-spend … --budget bench` run (one short address, one order) against a ledger already
// holding N orders in its window (each a hold, an order and an outcome, as a fleet leaves them), with its
// peak RSS and wall time, and the time of the hold's own transaction in the server's statement log. Aim:
// memory and start flat in N (within +20 MiB and 0.5 s at 300k of the empty ledger's).
//   node bench/ledger.mjs [--smoke] [--sizes 0,100000,300000] [--bin path/to/bin/energy.js]
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredRun as runOnce, startFleetHosts } from './fleet-hosts.mjs';

const DAY_MS = 86_400_000;

export async function measureLedger({ node = process.execPath, bin, smoke = false, sizes, say = () => {} }) {
  const hostsWorld = await startFleetHosts({ bin, name: 'ledger' });
  if (hostsWorld === undefined) return undefined;
  const { sandbox, cluster, work, encodeTronAddress } = hostsWorld;
  const env = hostsWorld.env('state');
  const rows = [];
  try {
    let filled = 0;
    let tag = 0;
    for (const size of sizes ?? (smoke ? [0, 1_000] : [0, 100_000, 300_000])) {
      const address = encodeTronAddress(Buffer.concat([Buffer.from([0x41]), Buffer.alloc(20, 0x70 + tag++)]));
      const args = [bin, 'ensure', address, '--energy', '65000', '--hours', '1', '--yes', '--json'];
      const ceiling = ['--max-spend', '1000000000/24h', '--budget', 'bench'];
      if (filled === 0) {
        // The schema and the ledger's row, as a first run leaves them.
        await runOnce(node, [bin, 'state', 'status'], env, join(work, 'rss'));
        cluster.sql("INSERT INTO energy.spend_ledger VALUES ('budget bench', 86400000) ON CONFLICT DO NOTHING");
      }
      if (size > filled) {
        say(`ledger: filling to ${size.toLocaleString('en-US')} orders`);
        const now = Number(JSON.parse(await (await fetch(`${sandbox.url}/v1/time`)).text()).unix_time) * 1000;
        // Spread over the last 23 hours: every one inside the day's window. Written as a set (the trigger that
        // makes each entry's row, one event at a time, off meanwhile; the entries then made the same way in
        // one statement): the fill is the bench's, not what is measured.
        cluster.sql(`ALTER TABLE energy.spend_event DISABLE TRIGGER spend_event_changed;
          INSERT INTO energy.spend_event
            (ledger, event_id, kind, client_request_id, holder, address, total_trx, order_id, state, key_id, origin, at_ms, host)
          SELECT 'budget bench', k || i, k, 'fill-' || i, CASE WHEN k = 'hold' THEN 'h' END, 'TFILL',
                 CASE WHEN k <> 'final' THEN 0.000001 END, CASE WHEN k = 'order' THEN 'o' || i END,
                 CASE WHEN k = 'final' THEN 'kept' END, CASE WHEN k = 'hold' THEN 'sha256:fill' END,
                 CASE WHEN k = 'hold' THEN 'http://fill' END, ${now} - (i % ${23 * 3_600}) * 1000, 'bench'
            FROM generate_series(${filled + 1}, ${size}) AS i, unnest(ARRAY['hold', 'order', 'final']) AS k;
          INSERT INTO energy.spend_entry (ledger, client_request_id, address, key_id, order_id, final_state, amount, at_ms)
          SELECT 'budget bench', 'fill-' || i, 'TFILL', 'sha256:fill', 'o' || i, 'kept', 0.000001,
                 ${now} - (i % ${23 * 3_600}) * 1000
            FROM generate_series(${filled + 1}, ${size}) AS i;
          ALTER TABLE energy.spend_event ENABLE TRIGGER spend_event_changed;
          ANALYZE energy.spend_event; ANALYZE energy.spend_entry`);
        filled = size;
      }
      const log = cluster.logSize();
      const run = await runOnce(node, [...args, ...ceiling], env, join(work, 'rss'));
      const statements = cluster.statements(log);
      rows.push({
        size,
        ...run,
        longestMs: Math.max(0, ...statements),
        totalMs: statements.reduce((sum, ms) => sum + ms, 0),
        statements: statements.length,
      });
      say(`ledger: ${size} orders: ${run.seconds.toFixed(2)} s, ${run.rssMiB.toFixed(0)} MiB`);
    }
    return { rows, dayMs: DAY_MS };
  } finally {
    await hostsWorld.close();
  }
}

export function ledgerRows({ rows }) {
  const base = rows[0];
  const last = rows.at(-1);
  const flat = last.rssMiB - base.rssMiB <= 20 && last.seconds - base.seconds <= 0.5;
  return [
    `| one \`ensure --max-spend\` (one order) with the PostgreSQL ledger holding ${rows.map((r) => r.size.toLocaleString('en-US')).join(' / ')} orders in its window: peak RSS | ${rows.map((r) => `${r.rssMiB.toFixed(0)}`).join(' / ')} MiB | within +20 MiB of the empty ledger's | ${last.rssMiB - base.rssMiB <= 20 ? 'yes' : 'no'} |`,
    `| the same runs: wall time (the run's statements in all; the longest, the window summed) | ${rows.map((r) => r.seconds.toFixed(2)).join(' / ')} s (${rows.map((r) => r.totalMs.toFixed(0)).join(' / ')} ms; ${rows.map((r) => r.longestMs.toFixed(0)).join(' / ')} ms) | within +0.5 s | ${flat ? 'yes' : 'no'} |`,
  ];
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const binArg = argv.indexOf('--bin');
  const bin = binArg === -1 ? fileURLToPath(new URL('../bin/energy.js', import.meta.url)) : resolve(argv[binArg + 1]);
  const sizesArg = argv.indexOf('--sizes');
  const sizes = sizesArg === -1 ? undefined : argv[sizesArg + 1].split(',').map(Number);
  const figures = await measureLedger({ bin, smoke: argv.includes('--smoke'), sizes, say: (l) => console.error(l) });
  if (figures === undefined) console.log('no PostgreSQL on this machine: the ledger is not measured');
  else
    console.log(
      ['| ledger (this build) | measured | goal | met |', '| --- | ---: | ---: | :---: |', ...ledgerRows(figures)].join(
        '\n',
      ),
    );
}
