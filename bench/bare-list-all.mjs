// Baseline for `energy order list --all --json`: fetches every page with node:http (keep-alive) and writes
// the same JSON document, page by page.
import { agent, signedGet } from './signed-get.mjs';

const limit = process.env.BENCH_PAGE_LIMIT ?? '100';
let cursor;
let first = true;
process.stdout.write('{"items":[');
do {
  const query = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const page = await signedGet('/v1/energy/orders', query);
  const text = page.items.map((item) => JSON.stringify(item)).join(',');
  if (text) process.stdout.write((first ? '' : ',') + text);
  if (text) first = false;
  cursor = page.next_cursor;
} while (cursor);
process.stdout.write('],"next_cursor":null}\n');
agent.destroy();
