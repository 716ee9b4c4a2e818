/**
 * The contract check of `order batch`, as `order create` and `quote` do it: no rental can reach a contract
 * account (TRON does not delegate to one), so a batch naming one is refused whole, naming the line, before
 * any quote, like every other bad line. USDT's contract is refused by the line check itself (no request);
 * other contracts only when a TRON node is configured, by its `getaccount`, once per distinct address.
 */
import { UsageError } from '../domain/errors.js';
import { askContractAccount, contractReceiverError } from '../tron/receiver.js';
import type { TronNode } from '../tron/tron-node.js';
import { runPool } from '../domain/pool.js';
import { batchLines, type BatchSource } from './source.js';

export async function refuseContractLines(
  source: BatchSource,
  node: () => Promise<TronNode | undefined>,
  note: (line: string) => void,
  concurrency: number,
): Promise<void> {
  const tron = await node();
  if (tron === undefined) return;
  const asked = new Set<string>();
  // A node that cannot answer is said once, and no more addresses are asked: the check is a safety net.
  let unanswered = false;
  await runPool(
    batchLines(source),
    concurrency,
    async (line) => {
      if (asked.has(line.address)) return;
      asked.add(line.address);
      const answer = await askContractAccount(tron, line.address);
      if (answer === true) {
        const contract = contractReceiverError(line.address);
        throw new UsageError(`${source.label}, line ${line.line}: ${contract.message}: nothing was bought`, {
          hint: contract.hint,
        });
      }
      if (answer !== false && !unanswered) {
        unanswered = true;
        note(
          `energy: could not check whether the batch's addresses are contract accounts (${answer.message}); going on`,
        );
      }
    },
    () => unanswered,
  );
}
