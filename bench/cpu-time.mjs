// CPU time (user + system) and wall time of one child process, by one of two clocks:
// - perf: Linux's `perf stat` counting the child's task-clock (its CPU time, to 10 µs, threads and children
//   included) and its duration_time (wall);
// - rusage: bash's `time`, the rusage of the process it waited for (getrusage's children), to the millisecond.
// Either is the child's own CPU, not its parent's nor the machine's: steadier than wall time on a shared machine,
// where another process's turn on the core is not counted. perf is used wherever it can count (perf installed,
// perf_event_paranoid allowing a user's own task-clock): a start-up of 35-45 ms read to the millisecond makes a
// round's ratio move in steps of ~0.025x, and the median of such steps cannot tell 1.15x from 1.16x, the
// difference between an aim met and missed (issue 48). BENCH_CPU_CLOCK=perf or =rusage chooses one; the tables
// say which measured them. Used by startup.mjs, state-url.mjs and state-url-before.mjs.
import { spawnSync } from 'node:child_process';
import os from 'node:os';

const TIMED = 'TIMEFORMAT="@cpu %3R %3U %3S"; time "$@" >/dev/null 2>&3';
/**
 * Where every timed child runs: a folder of no project, not wherever the bench was started. With a preload
 * (`-r`, as phase-marks.cjs and young-gen.cjs are), Node reads the working folder's package.json: from the
 * checkout, ~14 KB more young generation and a parse that a user's run does not pay. Paths given to the bench
 * are made absolute where it reads them.
 */
export const NEUTRAL_CWD = os.tmpdir();
/** perf stat's counts, as CSV on descriptor 3 so that the child's own stderr stays apart. */
const PERF = ['stat', '-x,', '-e', 'task-clock,duration_time', '--log-fd', '3', '--'];

let chosen;

/** The clock in use: 'perf' or 'rusage' (BENCH_CPU_CLOCK, else perf where it can count). */
function cpuClock() {
  if (chosen !== undefined) return chosen;
  const asked = process.env.BENCH_CPU_CLOCK;
  if (asked !== undefined && asked !== 'perf' && asked !== 'rusage')
    throw new Error(`BENCH_CPU_CLOCK=${asked}: perf or rusage`);
  if (asked === 'rusage') return (chosen = 'rusage');
  const probe = perfRun('sh', ['-c', 'exit 7'], { PATH: process.env.PATH });
  if (probe.status === 7 && probe.counts !== undefined) return (chosen = 'perf');
  if (asked === 'perf') throw new Error(`BENCH_CPU_CLOCK=perf, but perf stat cannot count here: ${probe.why}`);
  return (chosen = 'rusage');
}

/** A clock's one-line description, for the tables. */
export function cpuClockLabel() {
  return cpuClock() === 'perf' ? '`perf stat` task-clock, to 10 µs' : "bash's `time` (rusage), to the millisecond";
}

function perfRun(command, args, env) {
  const result = spawnSync('perf', [...PERF, command, ...args], {
    cwd: NEUTRAL_CWD,
    env,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  });
  if (result.error !== undefined) return { status: null, why: result.error.message, stderr: '' };
  const log = result.output[3] ?? '';
  const value = (event) => {
    const fields = log
      .split('\n')
      .find((line) => line.split(',')[2] === event)
      ?.split(',');
    return fields === undefined ? undefined : { amount: Number(fields[0]), unit: fields[1] };
  };
  const cpu = value('task-clock');
  const wall = value('duration_time');
  const counted = cpu?.unit === 'msec' && Number.isFinite(cpu.amount) && wall?.unit === 'ns' && wall.amount > 0;
  return {
    status: result.status,
    stderr: result.stderr,
    why: log.trim().split('\n').at(-1) ?? '',
    counts: counted ? { cpuMs: cpu.amount, wallMs: wall.amount / 1e6 } : undefined,
  };
}

/** Runs `command args` once with `env`; returns { wallMs, cpuMs }; throws unless it exits `code`. */
export function cpuTime(command, args, env, code = 0) {
  if (cpuClock() === 'perf') {
    const run = perfRun(command, args, env);
    if (run.status !== code || run.counts === undefined)
      throw new Error(
        `${[command, ...args].join(' ')} exited ${run.status}: ${run.stderr.slice(-2000)}` +
          (run.counts === undefined ? ` (perf stat counted nothing: ${run.why})` : ''),
      );
    return run.counts;
  }
  const result = spawnSync('bash', ['-c', `exec 3>&2; ${TIMED}`, 'bash', command, ...args], {
    cwd: NEUTRAL_CWD,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const line = result.stderr.split('\n').findLast((l) => l.startsWith('@cpu '));
  if (result.status !== code || line === undefined)
    throw new Error(`${[command, ...args].join(' ')} exited ${result.status}: ${result.stderr.slice(-2000)}`);
  const [real, user, sys] = line.slice(5).split(' ').map(Number);
  return { wallMs: real * 1000, cpuMs: (user + sys) * 1000 };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The ~95 % interval of a median, distribution-free: the values at ranks n/2 ∓ 0.98·√n of the sorted sample
 * (the order statistics between which the true median lies with ~95 % probability). A ratio whose interval
 * crosses an aim has not been shown to meet it, nor to miss it: more rounds, or a quieter machine. Below six
 * values no two order statistics reach 95 %: the interval is then the whole range (75 % for three).
 */
export function medianInterval(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const half = 0.98 * Math.sqrt(n);
  const low = Math.max(1, Math.floor(n / 2 - half));
  const high = Math.min(n, Math.ceil(1 + n / 2 + half));
  return [sorted[low - 1], sorted[high - 1]];
}

/** "1.15x (1.13–1.17)": a median ratio and its interval, for the tables. */
export function ratioWithInterval({ cpuRatio, cpuRatioInterval: [low, high] }) {
  return `${cpuRatio.toFixed(2)}x (${low.toFixed(2)}–${high.toFixed(2)})`;
}

/** "yes" or "no" against an aim; with "?" where the median's interval crosses it. */
export function metAim(ratio, [low, high], aim) {
  if (high <= aim) return 'yes';
  if (low > aim) return 'no';
  return ratio <= aim ? 'yes?' : 'no?';
}

/**
 * `cases` ({ command, args, env, code? }) run in turn, `rounds` times, after one warm-up each (file cache,
 * compile cache). Returns per case the median CPU and wall milliseconds, and the median of its pair-by-pair
 * ratio against the first case (the baseline), with that median's interval: a drift in the machine's speed
 * moves both of a pair alike.
 */
export function interleaved(cases, rounds) {
  const samples = cases.map(() => []);
  for (const c of cases) cpuTime(c.command, c.args, c.env, c.code);
  for (let round = 0; round < rounds; round += 1) {
    cases.forEach((c, index) => samples[index].push(cpuTime(c.command, c.args, c.env, c.code)));
  }
  return samples.map((runs) => {
    const cpuRatios = runs.map((r, i) => r.cpuMs / samples[0][i].cpuMs);
    return {
      cpuMs: median(runs.map((r) => r.cpuMs)),
      wallMs: median(runs.map((r) => r.wallMs)),
      cpuRatio: median(cpuRatios),
      cpuRatioInterval: medianInterval(cpuRatios),
      wallRatio: median(runs.map((r, i) => r.wallMs / samples[0][i].wallMs)),
    };
  });
}
