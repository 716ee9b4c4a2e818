// `ensure --every` as a service: resident memory after 10 and after 1,000 fast cycles against the sandbox,
// read from outside (/proc/<pid>/status, else ps) when the service prints each cycle's NDJSON line.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

function rssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    if (kb !== undefined) return Number(kb) / 1024;
  } catch {
    // Not Linux: ask ps.
  }
  return Number(spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim()) / 1024;
}

/**
 * Runs the service until `cycles` cycles, noting RSS at each of `marks`; returns { mark: MB }, and the time.
 * `extra` adds options (--metrics …): with `scrape`, /metrics is read at each mark, as Prometheus would.
 */
export async function measureServiceRss({ node, bin, env, addresses, cycles = 1000, marks = [10, 1000], extra = [] }) {
  const args = [
    bin,
    'ensure',
    ...addresses,
    '--energy',
    '65000',
    '--hours',
    '1',
    '--yes',
    '--json',
    '--every',
    '1ms',
    ...extra,
  ];
  const child = spawn(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let metricsUrl;
  child.stderr.on('data', (chunk) => {
    metricsUrl ??= /metrics at (http:\/\/[^\s/]+\/metrics)/.exec(chunk.toString())?.[1];
  });
  const rss = {};
  const started = Date.now();
  let pending = '';
  await new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      Object.keys(rss).length === marks.length ? resolve() : reject(new Error(`exit ${code}`)),
    );
    child.stdout.on('data', (chunk) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const { cycle } = JSON.parse(line);
        if (marks.includes(cycle)) {
          rss[cycle] = rssMb(child.pid);
          if (metricsUrl !== undefined) void fetch(metricsUrl).then((response) => response.text());
        }
        if (cycle >= cycles) child.kill('SIGTERM');
      }
    });
  });
  return { rss, seconds: (Date.now() - started) / 1000 };
}
