/**
 * The server's clock, as one run reads it: `ensure` computes a need's period, its window and the age of a
 * delivery on it, and `order batch` how far back a 409's order is looked for, because hosts must agree on
 * them and a host's own clock may be hours or days off. One `GET /v1/time` (anonymous) per run that needs it,
 * taken into the client's one clock (client/clock.ts): after it, "now" is that reading advanced by the
 * monotonic clock, never the host's clock plus an offset, so a host clock that steps inside a run moves
 * nothing (issue 44). Signing uses the same clock.
 */
import type { EnergyClient } from '../client/client.js';

export interface ServerClock {
  /**
   * Server minus host clock now, in ms. Kept for callers that still add it to the host's clock: read at each
   * use, so that the sum is `nowMs()` even after the host clock steps. New code calls `nowMs()`.
   */
  readonly offsetMs: number;
  /** The server's time now, in ms. */
  nowMs(): number;
}

type Reads = Pick<EnergyClient, 'checkClock'> & Partial<Pick<EnergyClient, 'serverNowMs'>>;

/**
 * Takes a reading into `client`'s clock and hands that clock out. `localNowMs` is the host clock the offset is
 * measured from (and what a client without a clock of its own, a test's, is advanced by).
 */
export async function readServerClock(client: Reads, localNowMs: () => number = Date.now): Promise<ServerClock> {
  const { skew_seconds } = await client.checkClock();
  const serverNow = client.serverNowMs?.bind(client);
  if (serverNow === undefined) {
    const offsetMs = skew_seconds * 1000;
    return { offsetMs, nowMs: () => localNowMs() + offsetMs };
  }
  return {
    get offsetMs() {
      return serverNow() - localNowMs();
    },
    nowMs: () => serverNow(),
  };
}
