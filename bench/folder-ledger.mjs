// The --max-spend ledger in a state folder as it grows, for npm run bench (issue 47 item 1, the folder's half):
// one `energy ensure --max-spend … --budget bench` run (one short address, one order) beside a ledger log
// already holding N orders in its window (each a hold, an order and an outcome, as runs leave them), written
// here as a fixture, with its peak RSS and wall time. The first run after the fill has no checkpoint (as the
// first run after an upgrade): it reads the whole log once and writes one; the second reads the checkpoint and
// the log's tail. Aim: memory and start flat in N (within +20 MiB and 0.5 s at 300k of the empty ledger's).
//   node bench/folder-ledger.mjs [--smoke] [--sizes 0,100000,300000] [--bin path/to/bin/energy.js]
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredRun as runOnce, startFleetHosts } from './fleet-hosts.mjs';

/** The log of `budget bench` with `size` settled orders of 0.000001 over the last 23 hours, and a day's window. */
function writeLog(journal, size, nowMs) {
  const name = 'budget bench';
  const hash = createHash('sha256').update(`energy spend ledger\n${name}`, 'utf8').digest('hex').slice(0, 16);
  const path = join(journal, `spend-${hash}.ndjson`);
  const id = () => randomBytes(8).toString('hex');
  const lines = [JSON.stringify({ format: 'energy spend ledger', version: 2, ledger: name })];
  lines.push(JSON.stringify({ kind: 'window', window_ms: 86_400_000, event_id: id() }));
  for (let i = 0; i < size; i += 1) {
    const at = nowMs - (i % (23 * 3_600)) * 1000;
    const common = { id: `fill-${i}`, address: 'TFILL', total_trx: '0.000001', at_ms: at };
    lines.push(
      JSON.stringify({
        kind: 'hold',
        ...common,
        holder: 'h',
        key_id: 'sha256:fill',
        origin: 'http://fill',
        event_id: id(),
      }),
      JSON.stringify({ kind: 'order', ...common, order_id: `o${i}`, event_id: id() }),
      JSON.stringify({ kind: 'final', id: `fill-${i}`, state: 'kept', at_ms: at, note: null, event_id: id() }),
    );
  }
  mkdirSync(journal, { recursive: true, mode: 0o700 });
  writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o600 });
  rmSync(`${path}.totals`, { force: true });
}

export async function measureFolderLedger({ node = process.execPath, bin, smoke = false, sizes, say = () => {} }) {
  const hostsWorld = await startFleetHosts({ bin, name: 'folder-ledger', postgres: false });
  const { sandbox, work, encodeTronAddress } = hostsWorld;
  const rows = [];
  let tag = 0;
  try {
    for (const size of sizes ?? (smoke ? [0, 1_000] : [0, 100_000, 300_000])) {
      const state = join(work, `state-${size}`);
      const env = hostsWorld.env(`state-${size}`);
      const now = Number(JSON.parse(await (await fetch(`${sandbox.url}/v1/time`)).text()).unix_time) * 1000;
      say(`folder ledger: writing ${size.toLocaleString('en-US')} orders`);
      writeLog(join(state, 'journal'), size, now);
      const run = async () => {
        const address = encodeTronAddress(Buffer.concat([Buffer.from([0x41]), Buffer.alloc(20, 0x30 + tag++)]));
        const args = [bin, 'ensure', address, '--energy', '65000', '--hours', '1', '--yes', '--json'];
        return runOnce(node, [...args, '--max-spend', '1000000000/24h', '--budget', 'bench'], env, join(work, 'rss'));
      };
      const first = await run();
      const second = await run();
      rows.push({ size, first, second });
      say(`folder ledger: ${size} orders: ${second.seconds.toFixed(2)} s, ${second.rssMiB.toFixed(0)} MiB`);
    }
    return { rows };
  } finally {
    await hostsWorld.close();
  }
}

export function folderLedgerRows({ rows }) {
  const base = rows[0].second;
  const last = rows.at(-1).second;
  const sizes = rows.map((r) => r.size.toLocaleString('en-US')).join(' / ');
  const list = (pick, digits) => rows.map((r) => pick(r).toFixed(digits)).join(' / ');
  return [
    `| one \`ensure --max-spend\` (one order) with the state folder's ledger holding ${sizes} orders in its window, its checkpoint written: peak RSS | ${list((r) => r.second.rssMiB, 0)} MiB | within +20 MiB of the empty ledger's | ${last.rssMiB - base.rssMiB <= 20 ? 'yes' : 'no'} |`,
    `| the same runs: wall time | ${list((r) => r.second.seconds, 2)} s | within +0.5 s | ${last.seconds - base.seconds <= 0.5 ? 'yes' : 'no'} |`,
    `| the first run beside each log (no checkpoint yet: the whole log read once, as after an upgrade): peak RSS, wall time | ${list((r) => r.first.rssMiB, 0)} MiB, ${list((r) => r.first.seconds, 2)} s | | |`,
  ];
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const binArg = argv.indexOf('--bin');
  const bin = binArg === -1 ? fileURLToPath(new URL('../bin/energy.js', import.meta.url)) : resolve(argv[binArg + 1]);
  const sizesArg = argv.indexOf('--sizes');
  const sizes = sizesArg === -1 ? undefined : argv[sizesArg + 1].split(',').map(Number);
  const figures = await measureFolderLedger({
    bin,
    smoke: argv.includes('--smoke'),
    sizes,
    say: (l) => console.error(l),
  });
  console.log(
    [
      '| folder ledger (this build) | measured | goal | met |',
      '| --- | ---: | ---: | :---: |',
      ...folderLedgerRows(figures),
    ].join('\n'),
  );
}
