// Another build against this one on a stateful command with a state URL (issue 48): `order pending --json`
// through a unix socket (trust) and through PgBouncer in transaction mode, the two builds interleaved round by
// round as CPU and wall time (cpu-time.mjs), ratios pair by pair, and the statements one run of each sends,
// counted in the server's log (pg-cluster.mjs). Run it with each Node line's binary to measure that line.
//   node bench/state-url-before.mjs --before path/to/another/build/bin/energy.js [--rounds n] [--bin path]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve as absolutePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuClockLabel, cpuTime, interleaved } from './cpu-time.mjs';
import { pgbouncerBin, postgresBin, startBouncer, startCluster } from './pg-cluster.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const before = argv.includes('--before') ? absolutePath(option('--before')) : undefined;
const bin = absolutePath(option('--bin', fileURLToPath(new URL('../bin/energy.js', import.meta.url))));
const rounds = Number(option('--rounds', '21'));
const pgBin = postgresBin();
if (before === undefined || pgBin === undefined) {
  console.error(before === undefined ? 'usage: --before <bin/energy.js>' : 'PostgreSQL is not installed');
  process.exit(2);
}
const trust = startCluster(pgBin);
const bouncerBin = pgbouncerBin();
const bouncer = bouncerBin === undefined ? undefined : startBouncer(bouncerBin, trust);
const work = mkdtempSync(join(os.tmpdir(), 'energy-bench-state-before-'));
const env = { PATH: process.env.PATH, HOME: work, LANG: 'C.UTF-8', ENERGY_STATE_DIR: join(work, 'folder') };
const rows = [];
try {
  const ways = [
    ['unix socket, trust', trust.url],
    ...(bouncer ? [['PgBouncer (transaction mode), trust', bouncer.url]] : []),
  ];
  for (const [name, url] of ways) {
    const e = { ...env, ENERGY_STATE_URL: url };
    const cases = [before, bin].map((b) => ({
      command: process.execPath,
      args: [b, 'order', 'pending', '--json'],
      env: e,
    }));
    const load = os.loadavg()[0];
    const [was, now] = interleaved(cases, rounds);
    const counted = cases.map((c) => {
      const from = trust.logSize();
      cpuTime(c.command, c.args, e);
      return trust.statements(from).length;
    });
    rows.push(
      `| ${name} | ${was.cpuMs.toFixed(1)} | ${now.cpuMs.toFixed(1)} | ${now.cpuRatio.toFixed(3)}x | ${now.wallRatio.toFixed(3)}x | ${counted[0]} → ${counted[1]} | ${load.toFixed(1)} → ${os.loadavg()[0].toFixed(1)} |`,
    );
  }
} finally {
  bouncer?.stop();
  trust.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log(
  `Node ${process.version}, \`energy order pending --json\`, CPU by ${cpuClockLabel()}, medians of ${rounds} interleaved rounds:\n`,
);
console.log(
  '| state URL | CPU before (ms) | CPU now (ms) | now ÷ before, CPU | now ÷ before, wall | statements | load |',
);
console.log('| --- | ---: | ---: | ---: | ---: | :---: | :---: |');
console.log(rows.join('\n'));
