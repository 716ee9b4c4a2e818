// `order batch` for npm run bench: 1,000 orders in one batch (at concurrency 1, 4 and 16) against the same
// orders as separate `energy order create --yes` runs, and the peak memory of a 100,000-line batch.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The order every single-order measure places: after its first delivery, always the same price. */
export const ORDER_CREATE = [
  'order',
  'create',
  'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY',
  '--energy',
  '65000',
  '--hours',
  '1',
  '--yes',
  '--json',
];

/** A CSV of `count` distinct, valid, never-used addresses (seeded so that no two files share one). */
async function batchFile(dir, name, count, seed) {
  const { encodeTronAddress } = await import('../dist/domain/address.js');
  const lines = ['address,energy,hours'];
  for (let i = 0; i < count; i += 1) {
    const payload = Buffer.alloc(21, seed);
    payload[0] = 0x41;
    payload.writeUInt32BE(i + 1, 1);
    lines.push(`${encodeTronAddress(payload)},65000,1`);
  }
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function timed(node, args, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(node, args, { env, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`${args.slice(1).join(' ')} exited ${result.status}: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/**
 * Returns { perInvocationMs, batchMs: {1, 4, 16}, orders, invocationsSampled, rssMb, rssLines }.
 * `order create` is sampled (`samples` runs, median) and scaled to `orders`: 1,000 spawns would take minutes.
 */
export async function measureBatch({ node, bin, env, work, orders, samples, rssLines, reportRss }) {
  const invocations = [];
  for (let i = 0; i < samples; i += 1) {
    invocations.push(timed(node, [bin, ...ORDER_CREATE], env));
  }
  invocations.sort((a, b) => a - b);
  const perInvocationMs = invocations[Math.floor(invocations.length / 2)];
  const batchMs = {};
  for (const [index, concurrency] of [1, 4, 16].entries()) {
    const file = await batchFile(work, `batch-${concurrency}.csv`, orders, 0x61 + index);
    batchMs[concurrency] = timed(
      node,
      [bin, 'order', 'batch', file, '--yes', '--json', '--concurrency', String(concurrency)],
      env,
    );
  }
  // Memory: a dry run reads, checks and quotes every line and streams the plan, as a real run does.
  const big = await batchFile(work, 'batch-rss.csv', rssLines, 0x71);
  const rssFile = join(work, 'batch-rss');
  timed(node, ['--import', reportRss, bin, 'order', 'batch', big, '--dry-run', '--json', '--concurrency', '16'], {
    ...env,
    BENCH_RSS_FILE: rssFile,
  });
  return {
    perInvocationMs,
    batchMs,
    orders,
    invocationsSampled: samples,
    rssMb: Number(readFileSync(rssFile, 'utf8')) / 1024,
    rssLines,
  };
}
