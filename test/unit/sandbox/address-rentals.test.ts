/**
 * What the node reads of an address's rentals (the order book's delegated energy and rental spans), by the
 * per-address index: a rental counted from its delivery until its end, a lagging node, addresses apart, and
 * many orders of many addresses. Expected values are worked by hand from the timing below.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_FAILING_ADDRESS } from '../../../src/sandbox/catalog.js';
import { OrderBook } from '../../../src/sandbox/order-book.js';
import { testAddress } from './addresses.js';

/** Delivered 1 s after the order; an "hour" of 10 s, so a 1-hour rental ends 11 s after its order. */
const timing = { deliverAfterMs: 1_000, hourMs: 10_000 };
const T0 = 1_000_000;
let requestNumber = 0;

function bookAt(nowMs = T0): OrderBook {
  return new OrderBook(timing, '1000000.000000', 0, nowMs);
}

function rent(book: OrderBook, address: string, energy: number, hours: number, atMs: number): string {
  requestNumber += 1;
  const request = {
    client_request_id: `r-${requestNumber}`,
    address,
    energy,
    duration_hours: hours,
    expected_total_trx: '1.000000',
  };
  return book.create(request, '1.000000', atMs).id;
}

/** The address's delegated energy read at each [ms after T0, lagMs] in turn (a read moves stages on: order counts). */
function readsOf(book: OrderBook, address: string, reads: readonly (readonly [number, number])[]): number[] {
  return reads.map(([afterMs, lagMs]) => book.delegatedEnergy(address, T0 + afterMs, lagMs));
}

describe('delegated energy', () => {
  it('counts a rental from its delivery until its end, and not after', () => {
    const book = bookAt();
    const a = testAddress(1);
    rent(book, a, 65_000, 1, T0);
    const reads = readsOf(book, a, [
      [999, 0],
      [1_000, 0],
      [10_999, 0],
      [11_000, 0],
      [50_000, 0],
    ]);
    expect(reads).toEqual([0, 65_000, 65_000, 0, 0]);
  });

  it('an expired rental stays out when the clock is read earlier again; a delivered one waits for its delivery', () => {
    const book = bookAt();
    const [a, b] = [testAddress(2), testAddress(3)];
    rent(book, a, 65_000, 1, T0);
    rent(book, b, 32_000, 3, T0);
    expect(book.delegatedEnergy(a, T0 + 11_000)).toBe(0);
    expect(book.delegatedEnergy(b, T0 + 11_000)).toBe(32_000);
    // The clock set back: the expired rental does not come back; the delivered one shows once its delivery is due.
    expect(book.delegatedEnergy(a, T0 + 5_000)).toBe(0);
    expect(book.delegatedEnergy(b, T0 + 500)).toBe(0);
    expect(book.delegatedEnergy(b, T0 + 1_000)).toBe(32_000);
  });

  it("a node lagMs behind shows a delivery lagMs late, and still drops it at the rental's end", () => {
    const book = bookAt();
    const a = testAddress(4);
    rent(book, a, 131_000, 1, T0);
    const reads = readsOf(book, a, [
      [1_000, 500],
      [1_499, 500],
      [1_500, 500],
      [1_500, 0],
      [11_000, 500],
    ]);
    expect(reads).toEqual([0, 0, 131_000, 131_000, 0]);
  });

  it('keeps two addresses apart, and counts several rentals of one address each to its own end', () => {
    const book = bookAt();
    const [a, b] = [testAddress(5), testAddress(6)];
    rent(book, a, 65_000, 1, T0);
    rent(book, b, 32_000, 1, T0);
    rent(book, a, 32_000, 3, T0 + 2_000);
    rent(book, b, 65_000, 6, T0 + 4_000);
    expect(book.delegatedEnergy(testAddress(7), T0 + 5_000)).toBe(0);
    expect([book.delegatedEnergy(a, T0 + 3_000), book.delegatedEnergy(b, T0 + 3_000)]).toEqual([97_000, 32_000]);
    expect([book.delegatedEnergy(a, T0 + 5_000), book.delegatedEnergy(b, T0 + 5_000)]).toEqual([97_000, 97_000]);
    expect([book.delegatedEnergy(a, T0 + 11_000), book.delegatedEnergy(b, T0 + 11_000)]).toEqual([32_000, 65_000]);
    expect([book.delegatedEnergy(a, T0 + 33_000), book.delegatedEnergy(b, T0 + 33_000)]).toEqual([0, 65_000]);
    expect(book.delegatedEnergy(b, T0 + 65_000)).toBe(0);
  });

  it('never counts an order to the failing address', () => {
    const book = bookAt();
    rent(book, SANDBOX_FAILING_ADDRESS, 65_000, 1, T0);
    expect(book.delegatedEnergy(SANDBOX_FAILING_ADDRESS, T0 + 1_000)).toBe(0);
    expect(book.rentalSpans(SANDBOX_FAILING_ADDRESS)).toEqual([]);
  });

  it('many orders of many addresses: each address reads its own, as rentals end', () => {
    const book = bookAt();
    // 1,000 addresses; address i gets 65,000 for 1 hour at T0 and, when i is even, 32,000 for 3 hours 2 s later.
    const addresses = Array.from({ length: 1_000 }, (_, i) => testAddress(1_000 + i));
    for (const address of addresses) rent(book, address, 65_000, 1, T0);
    addresses.forEach((address, i) => {
      if (i % 2 === 0) rent(book, address, 32_000, 3, T0 + 2_000);
    });
    const sum = (nowMs: number) =>
      addresses.reduce((total, address) => total + book.delegatedEnergy(address, nowMs), 0);
    expect(sum(T0 + 2_999)).toBe(65_000_000);
    expect(sum(T0 + 3_000)).toBe(81_000_000);
    expect(sum(T0 + 11_000)).toBe(16_000_000);
    expect(book.delegatedEnergy(addresses[0]!, T0 + 11_000)).toBe(32_000);
    expect(book.delegatedEnergy(addresses[1]!, T0 + 11_000)).toBe(0);
    expect(sum(T0 + 33_000)).toBe(0);
  });
});

describe('rental spans', () => {
  it("lists an address's rentals of every stage, in creation order, from delivery to end", () => {
    const book = bookAt();
    const [a, b] = [testAddress(8), testAddress(9)];
    const first = rent(book, a, 65_000, 1, T0);
    rent(book, b, 32_000, 1, T0);
    const second = rent(book, a, 32_000, 3, T0 + 2_000);
    expect(book.delegatedEnergy(a, T0 + 20_000)).toBe(32_000);
    expect(book.rentalSpans(a)).toEqual([
      { id: first, energy: 65_000, startMs: T0 + 1_000, endMs: T0 + 11_000 },
      { id: second, energy: 32_000, startMs: T0 + 3_000, endMs: T0 + 33_000 },
    ]);
    expect(book.rentalSpans(testAddress(10))).toEqual([]);
  });
});
