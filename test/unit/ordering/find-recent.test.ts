/**
 * Reading the newest orders back to a moment, against a real server on 127.0.0.1 that caps `limit` as a
 * real one may (the spec gives no bound): every page of the window is read at the size it accepts.
 */
import { describe, expect, it } from 'vitest';
import { scanRecentOrders } from '../../../src/ordering/find-recent.js';
import { pagingServer, scriptedApiForSuite } from '../../helpers/scripted-api.js';

const api = scriptedApiForSuite();
const minutesBack = (n: number) => Date.UTC(2026, 10, 23, 10) - n * 60_000;

describe('scanRecentOrders', () => {
  it('a server capped at 50 is read in pages of 50 through the whole window, and says so', async () => {
    api.server.script(pagingServer(200, 50));
    const seen: string[] = [];
    const sizes: (number | undefined)[] = [];
    const scan = await scanRecentOrders(
      api.client(),
      minutesBack(120),
      (order) => void seen.push(order.client_request_id),
      {
        onPageSize: (size) => sizes.push(size),
      },
    );
    // Orders 0–119 minutes back are in the window; pages of 50 end at orders 49, 99, 149, 199: the third
    // page reaches past the window, the fourth lies before it whole, and the reading stops there.
    expect(api.limits()).toEqual(['100', '50', '50', '50', '50']);
    expect(sizes).toEqual([50]);
    expect(seen).toHaveLength(200);
    expect(scan.complete).toBe(true);
  });

  it('a server that takes no limit at all is read in its default pages, following the cursor', async () => {
    api.server.script(pagingServer(45, 0));
    const seen: string[] = [];
    const scan = await scanRecentOrders(
      api.client(),
      minutesBack(1000),
      (order) => void seen.push(order.client_request_id),
    );
    expect(api.limits()).toEqual(['100', '50', null, null, null]);
    expect(seen).toHaveLength(45);
    expect(scan.complete).toBe(true);
  });

  it('stops at 1,000 orders, saying it did not reach the window and how far it read', async () => {
    api.server.script(pagingServer(3000, 100));
    const scan = await scanRecentOrders(api.client(), minutesBack(5000), () => undefined);
    expect(api.limits()).toHaveLength(10);
    expect(scan).toMatchObject({ complete: false, oldestReadMs: minutesBack(999), repeated: 0, outOfOrder: false });
  });
});
