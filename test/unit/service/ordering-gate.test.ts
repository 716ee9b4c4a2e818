import { describe, expect, it } from 'vitest';
import { StoppedBeforeOrderingError } from '../../../src/domain/cli-errors.js';
import { gateOrdering } from '../../../src/service/ordering-gate.js';

describe("the service's gate to ordering", () => {
  it('hands the addresses of the decision to the lock (a shared state locks each one across hosts)', async () => {
    const seen: (readonly string[] | undefined)[] = [];
    const gate = gateOrdering(
      async (work, addresses) => {
        seen.push(addresses);
        return work();
      },
      () => false,
    );
    expect(await gate(async () => 'ordered', ['TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'])).toBe('ordered');
    expect(seen).toEqual([['TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7']]);
  });

  it('orders nothing once a stop was asked for: the work never runs and the lock is never taken', async () => {
    let locked = 0;
    let worked = 0;
    const gate = gateOrdering(
      async (work) => {
        locked += 1;
        return work();
      },
      () => true,
    );
    expect(() => gate(async () => (worked += 1), ['TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'])).toThrow(
      StoppedBeforeOrderingError,
    );
    expect([locked, worked]).toEqual([0, 0]);
  });
});
