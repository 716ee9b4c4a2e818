// Start-up on every Node line CI tests (issue 48): `energy balance` and `energy time` from a profile, JSON and
// table, against the floor, a bare signed GET in CommonJS (bare-balance.cjs: node:http and node:crypto,
// nothing else), interleaved round by round, as CPU time (user + system, cpu-time.mjs: perf stat's task-clock
// where it can count, else bash's time) and wall time; then where the CPU beyond the floor goes, from runs
// watched by phase-marks.cjs.
//   node bench/startup.mjs [--rounds n] [--install-nodes] [--no-state-url] [--write] [--bin path/to/bin/energy.js]
//                          [--before path/to/another/build/bin/energy.js [--before-label text]]
// With the state URL's rows (state-url.mjs) on each line too, unless --no-state-url.
// Node lines: this process's Node, and those in BENCH_NODES (paths of other `node` binaries, space-separated),
// or with --install-nodes the `node@22`, `node@24` and `node@26` npm packages installed into a temporary
// prefix as .ci/run does (reused while it lasts). A line that cannot be had is skipped, and said.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve as absolutePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NEUTRAL_CWD, cpuClockLabel, cpuTime, interleaved, median, metAim, ratioWithInterval } from './cpu-time.mjs';
import { measureStateUrl, stateUrlTables } from './state-url.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
/** The lines CI tests besides the machine's (.ci/run). */
export const OTHER_LINES = ['22', '24', '26'];
/** The aims (issue 48): JSON within 1.15x the floor's CPU, tables within 1.2x. */
const AIM = { json: 1.15, table: 1.2 };

const lineOf = (node) => spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();

/** The Node binaries to measure: [{ node, version }], and the lines skipped with why. */
export function nodeLines({ install = false, onlyThisNode = false } = {}) {
  const nodes = [
    process.execPath,
    // A path (not a name looked up on PATH) made absolute: the runs happen in another folder (NEUTRAL_CWD).
    ...(onlyThisNode ? [] : (process.env.BENCH_NODES ?? '').split(/\s+/).filter(Boolean)).map((node) =>
      node.includes('/') ? absolutePath(node) : node,
    ),
  ];
  const skipped = [];
  if (install && !onlyThisNode) {
    const prefix = join(os.tmpdir(), 'energy-bench-nodes');
    for (const line of OTHER_LINES) {
      const bin = join(prefix, line, 'node_modules', 'node', 'bin', 'node');
      if (!existsSync(bin)) {
        const npm = spawnSync(
          'npm',
          [
            'install',
            '--prefix',
            join(prefix, line),
            '--no-save',
            '--no-audit',
            '--no-fund',
            '--no-package-lock',
            `node@${line}`,
          ],
          { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
        );
        if (npm.status !== 0 || !existsSync(bin)) {
          skipped.push(`Node ${line} (npm install node@${line} failed: ${npm.stderr.trim().split('\n').at(-1)})`);
          continue;
        }
      }
      nodes.push(bin);
    }
  }
  const found = nodes.map((node) => ({ node, version: lineOf(node) })).filter((n) => n.version !== '');
  const have = new Set(found.map((n) => n.version.replace(/^v(\d+)\..*/, '$1')));
  for (const line of OTHER_LINES)
    if (!have.has(line) && !skipped.some((s) => s.startsWith(`Node ${line} `)))
      skipped.push(
        `Node ${line} (${onlyThisNode ? 'a smoke run times this Node only' : 'not installed: BENCH_NODES or --install-nodes'})`,
      );
  return { lines: found, skipped };
}

async function startSandbox(bin, env) {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--no-save', '--no-rate-limit', '--json'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => resolve(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  const { base_url: url, api_key: key, api_secret: secret } = JSON.parse(line);
  return { child, url, key, secret };
}

/** The steps of phase-marks.cjs, in order; a step a run does not have ends where the next one does. */
const PHASES = [
  ['start', "Node's own start, to the first line of JavaScript"],
  ['settings', 'loading: energy its program (to the profile); the floor node:http, node:crypto and the signature'],
  ['offset', 'the profile and settings (to reading the clock offset)'],
  ['request', 'the offset, the API client and node:http, the signature (to the request)'],
  ['response', 'the request (to its response)'],
  ['output', 'the response read and printed (to the first write on stdout)'],
  ['exit', 'the end (to exit)'],
];

function phases(node, args, env, runs, file) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    cpuTime(node, ['-r', here('./phase-marks.cjs'), ...args], { ...env, BENCH_PHASES_FILE: file });
    const marks = JSON.parse(readFileSync(file, 'utf8'));
    let previous = 0;
    const row = [];
    for (let p = 0; p < PHASES.length; p += 1) {
      // A missing mark: the step took no time; what it would have held falls to the next mark present.
      const next = PHASES.slice(p)
        .map(([name]) => marks[name])
        .find((m) => m !== undefined);
      const at = marks[PHASES[p][0]] ?? next;
      row.push(Math.max(0, Math.min(at, next) - previous));
      previous = Math.max(previous, Math.min(at, next));
    }
    samples.push(row);
  }
  return PHASES.map((_, p) => median(samples.map((row) => row[p])));
}

/** How many runs `--trace-gc` counts the collections of. */
const TRACED_RUNS = 5;

/**
 * The young generation in one run: V8's collections of it (`--trace-gc`, in each of a few runs), and the KB the
 * run allocated there, read at exit (young-gen.cjs) from a run whose young generation is too large to be collected.
 */
function youngGeneration(node, args, env, file) {
  // Several runs: near the point where V8 collects, one run may pay a collection and the next not (Node 26).
  // One more first, not counted: a V8 flag changes V8's flag hash, so the first run with --trace-gc has the
  // code cache refused, compiles from the source and writes the cache again (an extra collection on Node 26).
  const collections = Array.from({ length: TRACED_RUNS + 1 }, () => {
    const traced = spawnSync(node, ['--trace-gc', ...args], {
      cwd: NEUTRAL_CWD,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return traced.stdout.split('\n').filter((line) => /\] +\d+ ms: (Scavenge|Minor)/.test(line)).length;
  }).slice(1);
  spawnSync(node, ['--min-semi-space-size=64', '-r', here('./young-gen.cjs'), ...args], {
    cwd: NEUTRAL_CWD,
    env: { ...env, BENCH_YOUNG_FILE: file },
    stdio: 'ignore',
  });
  return { collections, allocatedKb: Number(readFileSync(file, 'utf8')) };
}

/** One Node line: the table of ratios and where the time goes. */
async function measureLine({ node, version }, { bin, rounds, phaseRuns, before }) {
  const work = mkdtempSync(join(os.tmpdir(), 'energy-bench-startup-'));
  const base = { PATH: process.env.PATH, HOME: work, LANG: 'C.UTF-8' };
  const sandbox = await startSandbox(bin, { ...base, ENERGY_CONFIG_DIR: join(work, 'sandbox-config') });
  try {
    const profileEnv = { ...base, ENERGY_CONFIG_DIR: join(work, 'config') };
    mkdirSync(profileEnv.ENERGY_CONFIG_DIR, { mode: 0o700 });
    const profile = { 'base-url': sandbox.url, 'api-key': sandbox.key, 'api-secret': sandbox.secret };
    writeFileSync(
      join(profileEnv.ENERGY_CONFIG_DIR, 'config.json'),
      JSON.stringify({ profiles: { default: profile } }),
      {
        mode: 0o600,
      },
    );
    const floorEnv = {
      ...base,
      ENERGY_CONFIG_DIR: profileEnv.ENERGY_CONFIG_DIR,
      ENERGY_BASE_URL: sandbox.url,
      ENERGY_API_KEY: sandbox.key,
      ENERGY_API_SECRET: sandbox.secret,
    };
    const cases = [
      { name: 'floor: bare signed GET, CommonJS', command: node, args: [here('./bare-balance.cjs')], env: floorEnv },
      ...[['balance', '--json'], ['time', '--json'], ['balance'], ['time']].flatMap((words) => [
        {
          name: `energy ${words.join(' ')}${words.length === 1 ? ' (table)' : ''}, from a profile`,
          aim: words.length === 1 ? AIM.table : AIM.json,
          command: node,
          args: [bin, ...words],
          env: profileEnv,
        },
        // --before: another build's bin/energy.js in the same rounds (a change's effect, pair by pair).
        ...(before === undefined
          ? []
          : [
              {
                name: `the same, ${before.label}`,
                command: node,
                args: [before.bin, ...words],
                // A cache folder of its own: a build before issue 48 removed every other cache of a bundle of
                // the same name, and two builds taking turns would each compile from scratch.
                env: { ...profileEnv, XDG_CACHE_HOME: join(work, 'before-cache') },
              },
            ]),
      ]),
    ];
    const load = os.loadavg()[0];
    const results = interleaved(cases, rounds);
    const file = join(work, 'phases.json');
    const floorPhases = phases(node, cases[0].args, floorEnv, phaseRuns, file);
    const ourPhases = phases(node, cases[1].args, profileEnv, phaseRuns, file);
    const young = {
      floor: youngGeneration(node, cases[0].args, floorEnv, file),
      ours: youngGeneration(node, cases[1].args, profileEnv, file),
    };
    return { version, load: [load, os.loadavg()[0]], rounds, phaseRuns, cases, results, floorPhases, ourPhases, young };
  } finally {
    const exited = new Promise((resolve) => sandbox.child.once('exit', resolve));
    sandbox.child.kill('SIGTERM');
    await exited;
    rmSync(work, { recursive: true, force: true });
  }
}

/** Every line's measures, one after the other (each its own sandbox). */
export async function measureStartup({
  bin = here('../bin/energy.js'),
  rounds = 31,
  phaseRuns = 9,
  install = false,
  onlyThisNode = false,
  stateUrl = false,
  before = undefined,
} = {}) {
  const { lines, skipped } = nodeLines({ install, onlyThisNode });
  const measured = [];
  for (const line of lines) {
    const m = await measureLine(line, { bin, rounds, phaseRuns, before });
    // The state URL's cost (state-url.mjs) on the same line: undefined where PostgreSQL is not installed.
    if (stateUrl) {
      const home = mkdtempSync(join(os.tmpdir(), 'energy-bench-state-home-'));
      const env = { PATH: process.env.PATH, HOME: home, ENERGY_CONFIG_DIR: join(home, 'config') };
      m.stateUrl = await measureStateUrl({ node: line.node, bin, env, rounds: Math.max(1, Math.round(rounds * 0.7)) });
      rmSync(home, { recursive: true, force: true });
    }
    measured.push(m);
  }
  return { measured, skipped };
}

const fmt = (n) => n.toFixed(1);
const signed = (n) => (n >= 0 ? '+' : '') + fmt(n);
const total = (steps) => steps.reduce((a, b) => a + b, 0);
const times = (n) => (n === 0 ? 'not at all' : n === 1 ? 'once' : `${n} times`);
/** "once", or where the runs differ "once in 3 runs of 5, 2 times in 2". */
const collected = (counts) => {
  const seen = [...new Set(counts)].sort((a, b) => a - b);
  if (seen.length === 1) return `${times(seen[0])} (in each of ${counts.length} runs)`;
  return seen.map((n) => `${times(n)} in ${counts.filter((c) => c === n).length} runs of ${counts.length}`).join(', ');
};

/** Markdown: per line, the ratios table and the breakdown; then the lines skipped. */
export function startupTables({ measured, skipped }) {
  const out = [];
  for (const m of measured) {
    out.push(
      `Node ${m.version}: CPU time (user + system; ${cpuClockLabel()}) and wall time per run, medians of ${m.rounds} interleaved rounds; each ratio is the median of the round-by-round ratios to the floor, with its ~95 % interval; a "?" where that interval crosses the aim (load average ${m.load.map((l) => l.toFixed(1)).join(' → ')} on ${os.cpus().length} cores).`,
      '',
      '| command | CPU (ms) | ÷ floor, CPU | ÷ floor, wall | aim (CPU) | met |',
      '| --- | ---: | ---: | ---: | ---: | :---: |',
      ...m.cases.map((c, i) => {
        const r = m.results[i];
        if (i === 0) return `| ${c.name} | ${fmt(r.cpuMs)} | 1.00x | 1.00x | | |`;
        if (c.aim === undefined)
          return `| ${c.name} | ${fmt(r.cpuMs)} | ${ratioWithInterval(r)} | ${r.wallRatio.toFixed(2)}x | | |`;
        return `| ${c.name} | ${fmt(r.cpuMs)} | ${ratioWithInterval(r)} | ${r.wallRatio.toFixed(2)}x | ≤ ${c.aim}x | ${metAim(r.cpuRatio, r.cpuRatioInterval, c.aim)} |`;
      }),
      '',
      `Where \`energy balance --json\`'s CPU goes, step by step (medians of ${m.phaseRuns} runs watched by bench/phase-marks.cjs, which itself costs both sides a little):`,
      '',
      '| step (CPU ms) | energy | floor | beyond the floor |',
      '| --- | ---: | ---: | ---: |',
      ...PHASES.map(([, label], p) => {
        const ours = m.ourPhases[p];
        const floor = m.floorPhases[p];
        return `| ${label} | ${fmt(ours)} | ${fmt(floor)} | ${signed(ours - floor)} |`;
      }),
      `| total | ${fmt(total(m.ourPhases))} | ${fmt(total(m.floorPhases))} | ${signed(total(m.ourPhases) - total(m.floorPhases))} |`,
      '',
      `The young generation in one run: \`energy balance --json\` allocates ${m.young.ours.allocatedKb} KB there and V8 collects it ${collected(m.young.ours.collections)}; the floor ${m.young.floor.allocatedKb} KB, ${collected(m.young.floor.collections)} (a collection, about 1 ms of CPU, comes once about 80 % of the young generation, 1 MiB at start, is in use).`,
      '',
      ...(m.stateUrl === undefined ? [] : stateUrlTables(m.stateUrl, m.version)),
    );
  }
  if (skipped.length > 0) out.push(`Skipped: ${skipped.join('; ')}.`, '');
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const result = await measureStartup({
    bin: absolutePath(option('--bin', here('../bin/energy.js'))),
    rounds: Number(option('--rounds', '31')),
    phaseRuns: Number(option('--phase-runs', '9')),
    install: argv.includes('--install-nodes'),
    stateUrl: !argv.includes('--no-state-url'),
    before: argv.includes('--before')
      ? { bin: absolutePath(option('--before', '')), label: option('--before-label', 'the build before') }
      : undefined,
  });
  const text = startupTables(result).join('\n');
  console.log(text);
  if (argv.includes('--write')) {
    const file = here('./RESULTS.md');
    const [title, ...rest] = readFileSync(file, 'utf8').split('\n## ');
    const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
    const section = `## ${stamp} UTC, start-up on every Node line (node bench/startup.mjs)\n\n${text}`;
    writeFileSync(file, [title.trimEnd() + '\n', section, ...rest.map((r) => `## ${r}`)].join('\n'));
    console.log(`written to ${file}`);
  }
}
