/**
 * A short order id (the first 8 characters a narrow terminal's `order list` shows, as git and docker show
 * ids) made whole: looked up among the newest orders, the ones a person has just seen listed. Nothing is
 * guessed: no match, or more than one, is an error that says so.
 */
import type { EnergyClient } from '../client/client.js';
import { UsageError } from '../domain/errors.js';
import { NotFoundError } from '../domain/cli-errors.js';
import { counted } from '../domain/text-forms.js';

/** How far back a short id is looked for: the newest orders, as `order list` shows them first. */
const SEARCHED = 1000;
const PAGE_SIZES = [1000, 100, undefined] as const;

const SHORT_ID_LENGTH = 8;

export async function resolveOrderId(client: EnergyClient, id: string, listCommand: string): Promise<string> {
  if (id.length !== SHORT_ID_LENGTH) return id;
  const matches: string[] = [];
  let read = 0;
  for await (const page of client.orderPages({ pageSizes: PAGE_SIZES })) {
    for (const order of page.items) if (order.id.toLowerCase().startsWith(id)) matches.push(order.id);
    read += page.items.length;
    if (read >= SEARCHED) break;
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new NotFoundError(
      read === 0
        ? `no order id starts with ${id}: the account has no orders`
        : `no order id starts with ${id} among the newest ${counted(read, 'order')}`,
      {
        hint: `give the whole id (\`${listCommand}\` in a pipe or with --json shows it)`,
      },
    );
  throw new UsageError(`${matches.length} orders have an id starting with ${id}: ${matches.join(', ')}`, {
    hint: 'give the whole id',
  });
}
