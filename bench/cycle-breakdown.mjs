// Where a fleet's cycle spends its time in PostgreSQL (issue 47, the p95 with --max-spend against none): run
//   ENERGY_BENCH_PG_KEEP=<folder> node bench/fleet-cycles.mjs --size 4x500
// (the server's log, with each line's time and backend and the lock waits over 50 ms, and each run's cycles
// by host are kept in <folder>), then
//   node bench/cycle-breakdown.mjs <folder> [cycle]
// for each run: the statements each host's cycle `cycle` ran (0: the buying one; 1, the default: the one after
// it, which settles the orders' outcomes), grouped by their text, with their count and time, and the lock waits.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
const dir = process.argv[2];
const index = Number(process.argv[3] ?? 1);
const logs = readdirSync(dir)
  .filter((f) => f.startsWith('pg-'))
  .map((f) => readFileSync(join(dir, f), 'utf8'))
  .join('\n');
const entries = [];
let current;
for (const line of logs.split('\n')) {
  const m = /^(energy[^|]*)\|(\d*)\|(\S+ \S+) UTC (\d+)\|(LOG|ERROR|DETAIL|STATEMENT|CONTEXT):  (.*)$/.exec(line);
  if (m) {
    const [, app, , ts, backend, level, text] = m;
    const pid = Number(app.split(' ').pop());
    current = { pid, backend, t: Date.parse(ts.replace(' ', 'T') + 'Z'), level, text };
    entries.push(current);
  } else if (current && line.startsWith('\t')) current.text += ' ' + line.trim();
  else current = undefined;
}
function kind(text) {
  const m = /duration: ([\d.]+) ms {2}(statement|parse|bind|execute)[^:]*: (.*)$/.exec(text);
  if (!m) return undefined;
  const sql = m[3].replace(/\s+/g, ' ').trim();
  return { ms: Number(m[1]), phase: m[2], sql: sql.slice(0, 90) };
}
for (const f of readdirSync(dir)
  .filter((f) => f.startsWith('cycles-'))
  .sort()) {
  const services = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  const groups = new Map();
  let waits = 0,
    waitLines = 0,
    cycleMs = [];
  for (const s of services) {
    const c = s.cycles[index];
    if (!c) continue;
    const [from, to] = [Date.parse(c.at), c.arrived];
    cycleMs.push(to - from);
    for (const e of entries) {
      if (e.pid !== s.pid || e.t < from || e.t > to + 5) continue;
      if (/still waiting|acquired/.test(e.text)) {
        waitLines += 1;
        const w = /after ([\d.]+) ms/.exec(e.text);
        if (/acquired/.test(e.text) && w) waits += Number(w[1]);
        continue;
      }
      const k = kind(e.text);
      if (!k) continue;
      const g = groups.get(k.sql) ?? { n: 0, ms: 0, max: 0 };
      if (k.phase !== 'parse' && k.phase !== 'bind') g.n += 1;
      g.ms += k.ms;
      g.max = Math.max(g.max, k.ms);
      groups.set(k.sql, g);
    }
  }
  console.log(
    `\n== ${f}: cycle ${index} ms by host ${cycleMs.join(', ')}; lock-wait lines ${waitLines}, acquired-after total ${waits.toFixed(0)} ms`,
  );
  const total = [...groups.values()].reduce((a, g) => a + g.ms, 0);
  console.log(`statements total ${total.toFixed(0)} ms over ${[...groups.values()].reduce((a, g) => a + g.n, 0)}`);
  for (const [sql, g] of [...groups].sort((a, b) => b[1].ms - a[1].ms).slice(0, 14))
    console.log(
      `${String(g.n).padStart(5)} ${g.ms.toFixed(1).padStart(9)} ms max ${g.max.toFixed(1).padStart(7)}  ${sql}`,
    );
}
