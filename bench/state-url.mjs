// A stateful command with a shared state URL against the same command on the state folder (issues 39 and
// 48), for npm run bench: `order pending --json` on the folder, then with ENERGY_STATE_URL through a unix socket
// with trust authentication, through PgBouncer in transaction mode (trust), and through a socket that asks for
// scram, interleaved round by round, as CPU time (cpu-time.mjs) and wall time. Scram is said apart: its login
// makes the client compute the PBKDF2 rounds of the server's verifier (PostgreSQL's scram_iterations, 4096 by
// default), work the server chose, timed here on its own too. The statements of one run are counted in the
// server's log.
//   node bench/state-url.mjs [--rounds n] [--bin path/to/bin/energy.js]
import { pbkdf2Sync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join, resolve as absolutePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuClockLabel, cpuTime, interleaved, median, metAim, ratioWithInterval } from './cpu-time.mjs';
import { pgbouncerBin, postgresBin, startBouncer, startCluster } from './pg-cluster.mjs';

/** The aim (issue 48): with a state URL, within 1.25x the folder's CPU. */
const AIM = 1.25;

/**
 * Rows (the folder first, then each way to the database) with medians and pair-by-pair ratios, the scram
 * login's own cost, and the statements one run sends; undefined where PostgreSQL is not installed.
 */
export async function measureStateUrl({ node, bin, env, rounds }) {
  const pgBin = postgresBin();
  if (pgBin === undefined) return undefined;
  const password = `bench-${Math.random().toString(36).slice(2)}`;
  const trust = startCluster(pgBin);
  const scram = startCluster(pgBin, { password });
  const bouncerBin = pgbouncerBin();
  const bouncer = bouncerBin === undefined ? undefined : startBouncer(bouncerBin, trust);
  const work = mkdtempSync(join(os.tmpdir(), 'energy-bench-state-'));
  try {
    const folderEnv = { ...env, ENERGY_STATE_DIR: join(work, 'folder') };
    const args = [bin, 'order', 'pending', '--json'];
    const cases = [
      { name: 'the state folder', env: folderEnv },
      { name: 'ENERGY_STATE_URL, unix socket, trust', env: { ...folderEnv, ENERGY_STATE_URL: trust.url }, aim: AIM },
      ...(bouncer === undefined
        ? []
        : [
            {
              name: 'ENERGY_STATE_URL through PgBouncer (transaction mode), trust',
              env: { ...folderEnv, ENERGY_STATE_URL: bouncer.url },
              aim: AIM,
            },
          ]),
      {
        name: 'ENERGY_STATE_URL, unix socket, scram (the login said apart below)',
        env: { ...folderEnv, ENERGY_STATE_URL: scram.url, PGPASSWORD: password },
      },
    ].map((c) => ({ ...c, command: node, args }));
    // The schemas, and the caches warm (interleaved() warms each case once more).
    for (const c of cases) cpuTime(node, args, c.env);
    const load = os.loadavg()[0];
    const results = interleaved(cases, rounds);
    const before = trust.logSize();
    cpuTime(node, args, cases[1].env);
    const statements = trust.statements(before).length;
    // The login's own work, apart from everything else: PBKDF2-SHA-256 over 4,096 rounds, as a scram client
    // computes it (the median of 11, in this process).
    const pbkdf2 = median(
      Array.from({ length: 11 }, () => {
        const started = process.cpuUsage();
        pbkdf2Sync(password, 'sixteen byte salt', 4096, 32, 'sha256');
        const used = process.cpuUsage(started);
        return (used.user + used.system) / 1000;
      }),
    );
    const scramRow = results.at(-1);
    return {
      rows: cases.map((c, i) => ({ name: c.name, aim: c.aim, ...results[i] })),
      scram: { beyondTrustCpuMs: scramRow.cpuMs - results[1].cpuMs, pbkdf2CpuMs: pbkdf2 },
      statements,
      load: [load, os.loadavg()[0]],
      rounds,
      bouncer: bouncer !== undefined,
    };
  } finally {
    bouncer?.stop();
    trust.stop();
    scram.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** Markdown for the measures above. */
export function stateUrlTables(measured, nodeVersion) {
  const fmt = (n) => n.toFixed(1);
  return [
    `\`energy order pending --json\` with a state URL against the state folder (Node ${nodeVersion}, CPU (${cpuClockLabel()}) and wall time per run, medians of ${measured.rounds} interleaved rounds, ratios pair by pair with their ~95 % interval, "?" where it crosses the aim; load average ${measured.load.map((l) => l.toFixed(1)).join(' → ')}):`,
    '',
    '| state | CPU (ms) | ÷ folder, CPU | ÷ folder, wall | aim (CPU) | met |',
    '| --- | ---: | ---: | ---: | ---: | :---: |',
    ...measured.rows.map((r, i) =>
      i === 0
        ? `| ${r.name} | ${fmt(r.cpuMs)} | 1.00x | 1.00x | | |`
        : `| ${r.name} | ${fmt(r.cpuMs)} | ${ratioWithInterval(r)} | ${r.wallRatio.toFixed(2)}x | ${r.aim === undefined ? '' : `≤ ${r.aim}x`} | ${r.aim === undefined ? '' : metAim(r.cpuRatio, r.cpuRatioInterval, r.aim)} |`,
    ),
    '',
    `The scram login costs ${fmt(measured.scram.beyondTrustCpuMs)} ms of CPU beyond the trust socket's run: the PBKDF2 of the server's verifier (4,096 rounds of HMAC-SHA-256 by PostgreSQL's default scram_iterations, the server's choice), which a scram client must compute, ${fmt(measured.scram.pbkdf2CpuMs)} ms of it timed on its own; the rest is the driver's side of the SCRAM exchange (its messages, two more round trips, the proofs). Trust or peer authentication over a unix socket does without it. One run sends ${measured.statements} statements.${measured.bouncer ? '' : ' (PgBouncer is not installed: its row is missing.)'}`,
    '',
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const rounds = argv.includes('--rounds') ? Number(argv[argv.indexOf('--rounds') + 1]) : 21;
  const bin = argv.includes('--bin')
    ? absolutePath(argv[argv.indexOf('--bin') + 1])
    : fileURLToPath(new URL('../bin/energy.js', import.meta.url));
  const home = mkdtempSync(join(os.tmpdir(), 'energy-bench-home-'));
  const env = { PATH: process.env.PATH, HOME: home, ENERGY_CONFIG_DIR: join(home, 'config') };
  const measured = await measureStateUrl({ node: process.execPath, bin, env, rounds });
  console.log(
    measured === undefined ? 'PostgreSQL is not installed' : stateUrlTables(measured, process.version).join('\n'),
  );
  rmSync(home, { recursive: true, force: true });
}
