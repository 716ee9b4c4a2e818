/** A short id made whole from the newest orders, never guessed. */
import { describe, expect, it } from 'vitest';
import type { EnergyClient } from '../../../src/client/client.js';
import type { OrderList } from '../../../src/client/types.js';
import { resolveOrderId } from '../../../src/ordering/resolve-order-id.js';
import { sampleOrder } from '../../helpers/sample-order.js';

function clientWith(pages: string[][]) {
  let read = 0;
  const client = {
    async *orderPages(): AsyncGenerator<OrderList> {
      for (const [index, ids] of pages.entries()) {
        read += 1;
        yield {
          items: ids.map((id) => sampleOrder({ id })),
          next_cursor: index < pages.length - 1 ? `c${index}` : null,
        };
      }
    },
  } as unknown as EnergyClient;
  return { client, pagesRead: () => read };
}

const uuid = (head: string, n: number) => `${head}-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('resolveOrderId', () => {
  it('passes a whole id through without a request', async () => {
    const { client, pagesRead } = clientWith([[uuid('aaaaaaaa', 1)]]);
    expect(await resolveOrderId(client, uuid('bbbbbbbb', 2), 'energy order list')).toBe(uuid('bbbbbbbb', 2));
    expect(pagesRead()).toBe(0);
  });

  it('finds the one order whose id starts with the short id', async () => {
    const { client } = clientWith([[uuid('aaaaaaaa', 1), uuid('2b7c1f7e', 2)], [uuid('cccccccc', 3)]]);
    expect(await resolveOrderId(client, '2b7c1f7e', 'energy order list')).toBe(uuid('2b7c1f7e', 2));
  });

  it('refuses a short id two orders share (exit 2), naming both', async () => {
    const { client } = clientWith([[uuid('2b7c1f7e', 1)], [uuid('2b7c1f7e', 2)]]);
    const error = await resolveOrderId(client, '2b7c1f7e', 'energy order list').catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 2 });
    expect(String(error)).toContain(uuid('2b7c1f7e', 1));
    expect(String(error)).toContain(uuid('2b7c1f7e', 2));
  });

  it('says not found (exit 4) with how many orders were searched', async () => {
    const { client } = clientWith([[uuid('aaaaaaaa', 1), uuid('bbbbbbbb', 2)]]);
    const error = await resolveOrderId(client, '2b7c1f7e', 'energy order list').catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 4, hint: expect.stringContaining('energy order list') as unknown });
    expect(String(error)).toMatch(/no order id starts with 2b7c1f7e among the newest 2 orders/);
  });

  it('one order read is said as one: "among the newest 1 order", not "1 orders"', async () => {
    const { client } = clientWith([[uuid('aaaaaaaa', 1)]]);
    const error = await resolveOrderId(client, '2b7c1f7e', 'energy order list').catch((e: unknown) => e);
    expect(String(error)).toMatch(/no order id starts with 2b7c1f7e among the newest 1 order$/);
  });

  it('looks no further back than the newest 1,000 orders', async () => {
    const page = (head: string) => Array.from({ length: 500 }, (_, i) => uuid(head, i));
    const { client, pagesRead } = clientWith([page('aaaaaaaa'), page('bbbbbbbb'), [uuid('2b7c1f7e', 1)]]);
    const error = await resolveOrderId(client, '2b7c1f7e', 'energy order list').catch((e: unknown) => e);
    expect(error).toMatchObject({ exitCode: 4 });
    expect(pagesRead()).toBe(2);
  });
});
