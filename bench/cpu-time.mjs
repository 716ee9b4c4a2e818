// CPU time (user + system) of one child process, to the millisecond: bash's `time` reports the rusage of
// the process it waited for (getrusage's children), so the figure is the child's own, not its parent's
// nor the machine's. CPU is steadier than wall time on a shared machine: another process's turn on the
// core is not counted. Used by startup.mjs and state-url.mjs.
import { spawnSync } from 'node:child_process';

const TIMED = 'TIMEFORMAT="@cpu %3R %3U %3S"; time "$@" >/dev/null 2>&3';

/** Runs `command args` once with `env`; returns { wallMs, cpuMs }; throws unless it exits `code`. */
export function cpuTime(command, args, env, code = 0) {
  const result = spawnSync('bash', ['-c', `exec 3>&2; ${TIMED}`, 'bash', command, ...args], {
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
 * `cases` ({ command, args, env, code? }) run in turn, `rounds` times, after one warm-up each (file cache,
 * compile cache). Returns per case the median CPU and wall milliseconds, and the median of its pair-by-pair
 * ratio against the first case (the baseline): a drift in the machine's speed moves both of a pair alike.
 */
export function interleaved(cases, rounds) {
  const samples = cases.map(() => []);
  for (const c of cases) cpuTime(c.command, c.args, c.env, c.code);
  for (let round = 0; round < rounds; round += 1) {
    cases.forEach((c, index) => samples[index].push(cpuTime(c.command, c.args, c.env, c.code)));
  }
  return samples.map((runs) => ({
    cpuMs: median(runs.map((r) => r.cpuMs)),
    wallMs: median(runs.map((r) => r.wallMs)),
    cpuRatio: median(runs.map((r, i) => r.cpuMs / samples[0][i].cpuMs)),
    wallRatio: median(runs.map((r, i) => r.wallMs / samples[0][i].wallMs)),
  }));
}
