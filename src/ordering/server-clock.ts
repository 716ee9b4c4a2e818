/**
 * The server's clock, as one run reads it: `ensure` computes a need's period, its window and the age of a
 * delivery on it, and `order batch` how far back a 409's order is looked for, because hosts must agree on
 * them and a host's own clock may be hours or days off (signing already survives that, by the offset the
 * transport learns). One `GET /v1/time` (anonymous) per run that needs it; it also corrects the signing
 * clock, so that a skewed host's first run does not start with a 401 on every request.
 */
import type { EnergyClient } from '../client/client.js';

export interface ServerClock {
  /** Server minus local clock, in ms (whole seconds: the server's clock is read to the second). */
  readonly offsetMs: number;
  /** The server's time now, in ms. */
  nowMs(): number;
}

export async function readServerClock(
  client: Pick<EnergyClient, 'checkClock'>,
  localNowMs: () => number,
): Promise<ServerClock> {
  const { skew_seconds } = await client.checkClock();
  const offsetMs = skew_seconds * 1000;
  return { offsetMs, nowMs: () => localNowMs() + offsetMs };
}
