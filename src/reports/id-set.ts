/**
 * The order ids a report has read, in flat memory: the spec's ids are UUIDs, kept as their 16 bytes in one
 * open-addressed table (32 bytes an order at most, against about 200 for a Set of strings), exactly: no
 * digest, no collision. An id that is not a UUID (a server off the spec) goes to a plain Set beside it.
 */
/** Where a UUID's text has its dashes. */
const DASHES = new Set([8, 13, 18, 23]);

export class IdSet {
  /** Four words an id; a slot whose four words are 0 is empty (the nil UUID goes to `#others`). */
  #table = new Uint32Array(4 * 1024);
  #count = 0;
  readonly #others = new Set<string>();
  readonly #words = new Uint32Array(4);

  has(id: string): boolean {
    return this.#packed(id) ? this.#slot() >= 0 : this.#others.has(id);
  }

  add(id: string): this {
    if (!this.#packed(id)) {
      this.#others.add(id);
      return this;
    }
    if (this.#slot() >= 0) return this;
    if (4 * (this.#count + 1) > 3 * (this.#table.length / 4)) this.#grow();
    this.#put(this.#words, 0);
    this.#count += 1;
    return this;
  }

  /** The id's 16 bytes in `#words`; false for an id that is not a UUID (or is the nil UUID). Allocates nothing. */
  #packed(id: string): boolean {
    if (id.length !== 36) return false;
    this.#words.fill(0);
    let digit = 0;
    for (let at = 0; at < 36; at += 1) {
      const code = id.charCodeAt(at);
      if (DASHES.has(at)) {
        if (code !== 0x2d) return false;
        continue;
      }
      const value = hexValue(code);
      if (value < 0) return false;
      const word = digit >> 3;
      this.#words[word] = ((this.#words[word]! << 4) | value) >>> 0;
      digit += 1;
    }
    return (this.#words[0]! | this.#words[1]! | this.#words[2]! | this.#words[3]!) !== 0;
  }

  /** The slot holding `#words`, or -1. */
  #slot(): number {
    const slots = this.#table.length / 4;
    const words = this.#words;
    for (let slot = startSlot(words, 0, slots); ; slot = (slot + 1) % slots) {
      const at = 4 * slot;
      if (this.#empty(at)) return -1;
      const table = this.#table;
      if (
        table[at] === words[0] &&
        table[at + 1] === words[1] &&
        table[at + 2] === words[2] &&
        table[at + 3] === words[3]
      )
        return slot;
    }
  }

  /** Puts the four words at `from[at…]` into the table. */
  #put(from: Uint32Array, at: number): void {
    const slots = this.#table.length / 4;
    let slot = startSlot(from, at, slots);
    while (!this.#empty(4 * slot)) slot = (slot + 1) % slots;
    for (let i = 0; i < 4; i += 1) this.#table[4 * slot + i] = from[at + i]!;
  }

  #grow(): void {
    const old = this.#table;
    this.#table = new Uint32Array(old.length * 2);
    for (let at = 0; at < old.length; at += 4) if (!isEmpty(old, at)) this.#put(old, at);
  }

  #empty(at: number): boolean {
    return isEmpty(this.#table, at);
  }
}

/** Where an id's probe starts: UUIDs are random in their last word (v4, and v7's random tail), mixed once. */
function startSlot(words: Uint32Array, at: number, slots: number): number {
  return (Math.imul(words[at + 3]! ^ words[at]!, 0x9e3779b1) >>> 0) % slots;
}

/** 0-15 for a hexadecimal digit's character code, else -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function isEmpty(table: Uint32Array, at: number): boolean {
  return table[at] === 0 && table[at + 1] === 0 && table[at + 2] === 0 && table[at + 3] === 0;
}
