/**
 * The server's clock for a service's cycle: read once (`GET /v1/time`) for every claim slice of the cycle (a host
 * new to its fleet decides its share in slices, each planned apart), and read again the next cycle: one clock a
 * process, re-read each cycle, never kept across cycles. The reading is the client's clock, advanced by the
 * monotonic clock between slices as between cycles. A read that failed is not kept: the next slice reads again.
 */
import type { ServerClock } from '../ordering/server-clock.js';

export type CycleClock = (read: () => Promise<ServerClock>) => Promise<ServerClock>;

/** A new cycle's clock: the first call reads, the others of the cycle share that reading. */
export function onceACycle(): CycleClock {
  let reading: Promise<ServerClock> | undefined;
  return (read) => {
    if (reading === undefined) {
      const started = read();
      reading = started;
      started.catch(() => {
        if (reading === started) reading = undefined;
      });
    }
    return reading;
  };
}
