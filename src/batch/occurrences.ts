/**
 * A batch line's occurrence: the how-manieth line of the file asking for the same address, energy and hours
 * without an id (part of its derived id, line-identity.ts). Counting it exactly needs a map of every line's
 * key, which for a 100,000-line batch raised peak memory by ~70 MB. So the check pass only marks each key
 * in a fixed 1 MiB bit filter and keeps the keys met before (true repeats, and a few false alarms); every
 * later pass, reading the file from the start in order, counts exactly those keys. A key not kept occurs
 * once, and a false alarm counts 1 all the same, so the ids never depend on the filter.
 */

const BITS = 1 << 23;

/** The check pass: which keys may occur more than once. */
export class RepeatFilter {
  readonly #bits = new Uint8Array(BITS / 8);
  readonly candidates = new Set<string>();

  add(key: string): void {
    const [a, b] = hashes(key);
    const seen = this.#has(a) && this.#has(b);
    this.#set(a);
    this.#set(b);
    if (seen) this.candidates.add(key);
  }

  #has(bit: number): boolean {
    return (this.#bits[bit >>> 3]! & (1 << (bit & 7))) !== 0;
  }

  #set(bit: number): void {
    this.#bits[bit >>> 3]! |= 1 << (bit & 7);
  }
}

/** A later pass: the exact occurrence of each line's key, counted in file order. */
export class OccurrenceCounter {
  readonly #counts = new Map<string, number>();

  constructor(private readonly candidates: ReadonlySet<string>) {}

  next(key: string): number {
    if (!this.candidates.has(key)) return 1;
    const occurrence = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, occurrence);
    return occurrence;
  }
}

/** Two 23-bit positions from FNV-1a over the key's UTF-16 units, with two offsets. */
function hashes(key: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ key.length;
  for (let i = 0; i < key.length; i += 1) {
    const unit = key.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995);
  }
  return [(a >>> 0) % BITS, ((b ^ (b >>> 15)) >>> 0) % BITS];
}
