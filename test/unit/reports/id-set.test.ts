/** The order ids `spend` remembers, in 16 bytes each: exact (no digest), whatever the case of the hex digits. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../../src/reports/id-set.js';

describe('IdSet', () => {
  it('holds 50,000 UUIDs exactly: each once, none it was not given', () => {
    const ids = Array.from({ length: 50_000 }, () => randomUUID());
    const set = new IdSet();
    for (const id of ids) set.add(id);
    for (const id of ids) set.add(id);
    expect(ids.every((id) => set.has(id))).toBe(true);
    expect(ids.every((id) => set.has(id.toUpperCase()))).toBe(true);
    const others = Array.from({ length: 50_000 }, () => randomUUID());
    expect(others.filter((id) => set.has(id))).toEqual([]);
  });

  it('two UUIDs that differ in one digit are two ids; the nil UUID and ids off the spec are kept too', () => {
    const set = new IdSet();
    set.add('00000000-0000-4000-8000-000000000001');
    expect(set.has('00000000-0000-4000-8000-000000000002')).toBe(false);
    expect(set.has('00000000-0000-4000-8000-000000000001')).toBe(true);
    for (const id of ['00000000-0000-0000-0000-000000000000', 'order-7', '00000000x0000-4000-8000-000000000001']) {
      expect(set.has(id)).toBe(false);
      set.add(id);
      expect(set.has(id)).toBe(true);
    }
    expect(set.has('00000000-0000-4000-8000-000000000003')).toBe(false);
  });
});
