/** Following an order on a fake clock: a client whose order becomes final at `finalAtMs`, and when it was read. */
import type { EnergyClient } from '../../src/client/client.js';
import type { Order } from '../../src/client/types.js';
import { fakeClock } from './fake-clock.js';
import { sampleOrder } from './sample-order.js';

/** `waitUntilFinal`'s client and its `nowMs`/`sleepMs` options on one fake clock that sleeping advances; the order
 * turns delivered and final at `finalAtMs` (never by default); `reads` holds the clock at each read. */
export function orderWaitWorld(finalAtMs = Infinity) {
  const clock = fakeClock();
  const reads: number[] = [];
  const client = {
    getOrder: async (): Promise<Order> => {
      reads.push(clock.now());
      return sampleOrder(clock.now() >= finalAtMs ? { status: 'delivered', delivery_final: true } : {});
    },
  } as unknown as EnergyClient;
  const options = { nowMs: clock.now, sleepMs: clock.sleep };
  return { client, reads, options };
}
