import { describe, expect, it } from 'vitest';
import { everyAddress } from '../../../src/state/address-claim.js';
import { StoppedBeforeOrderingError } from '../../../src/domain/cli-errors.js';
import { gateOrdering } from '../../../src/service/ordering-gate.js';

const X = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

describe("the service's gate to ordering", () => {
  it("hands the addresses of the decision to the claim's decision (a shared state renews each one's lease)", async () => {
    const seen: (readonly string[])[] = [];
    const gate = gateOrdering(
      async (addresses) =>
        everyAddress(addresses, async (held, work) => {
          seen.push(held);
          return work(held);
        }),
      () => false,
    );
    const claim = await gate([X]);
    expect(await claim.decide([X], async (held) => `ordered ${held.length}`)).toBe('ordered 1');
    expect(seen).toEqual([[X]]);
  });

  it("orders nothing once a stop was asked for: the work never runs and the claim's decision is never taken", async () => {
    let decided = 0;
    let worked = 0;
    const gate = gateOrdering(
      async (addresses) =>
        everyAddress(addresses, async (held, work) => {
          decided += 1;
          return work(held);
        }),
      () => true,
    );
    const claim = await gate([X]);
    expect(() => claim.decide([X], async () => (worked += 1))).toThrow(StoppedBeforeOrderingError);
    expect([decided, worked]).toEqual([0, 0]);
  });
});
