// The order journal's cost per order, for npm run bench: a journaled write before the request and a
// settle after it (each a temporary file, fsync, rename/link and a folder fsync), timed in this process on
// the same disk as the state folder, beside a whole `energy order create --yes` timed in the same run.
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Median milliseconds of one begin + settle, over `count` orders, in a fresh journal under `root`. */
export async function journalMsPerOrder(root, count) {
  const { Journal } = await import('../dist/state/folder/journal.js');
  const dir = mkdtempSync(join(root, 'journal-bench-'));
  try {
    const journal = new Journal(dir, { origin: 'http://127.0.0.1:1', keyId: 'sha256:0000000000000000' });
    const samples = [];
    for (let i = 0; i < count; i += 1) {
      const id = `bench-${i}`;
      const body = JSON.stringify({
        client_request_id: id,
        address: 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY',
        energy: 65000,
        duration_hours: 1,
        expected_total_trx: '2.600000',
      });
      const started = process.hrtime.bigint();
      const { record } = await journal.begin(id, body);
      await journal.settle(record, { kind: 'created', order_id: `order-${i}` });
      samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    samples.sort((a, b) => a - b);
    return samples[Math.floor(samples.length / 2)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
