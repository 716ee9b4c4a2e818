/**
 * The settled part of a folder ledger, held compactly (spend-ledger-file.ts keeps it in a checkpoint file
 * beside the log): the entries that can no longer change what they count, an order with its outcome (the
 * first order and the first outcome stand, spend-book.ts). What a ceiling asks of them is the window's sum
 * and oldest time, and whether an id is one of them (an id with an order costs nothing to hold again, and
 * its later lines change nothing). So each is kept as 36 bytes, not as its events:
 *   - its id as a 128-bit key (the first half of the SHA-256 of the id), sorted, with the second of its time
 *     (for pruning, rounded down);
 *   - when it counts (not refunded), its time in ms and the running sum of the amounts in micro-TRX (bigint),
 *     sorted by time: the sum since any time is one binary search and one subtraction, exact.
 * Amounts never pass through a JavaScript number: micro-TRX as bigint, text with six decimals at the edges.
 */
import { hash } from 'node:crypto';
import { entryAmount, entryTime, type SpendEntry } from '../../journal/spend-book.js';

const KEY = 16;
const INT64_MAX = 2n ** 63n - 1n;

/** The key an id is kept under. */
export function idKey(id: string): Buffer {
  return hash('sha256', id, 'buffer').subarray(0, KEY);
}

/** Six-decimal text as micro-TRX. */
export function microOf(amount: string): bigint {
  return BigInt(amount.replace('.', ''));
}

/** Micro-TRX as six-decimal text. */
export function amountOf(micro: bigint): string {
  const sign = micro < 0n ? '-' : '';
  const abs = micro < 0n ? -micro : micro;
  return `${sign}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}`;
}

/** Is the entry settled: nothing appended later can change what it counts, or when? */
export function isSettled(entry: SpendEntry): boolean {
  return entry.order !== undefined && entry.final !== undefined;
}

export interface SettledParts {
  /** The keys, sorted, 16 bytes each, and the second of each entry's time. */
  keys: Buffer;
  seconds: Uint32Array;
  /** The counted entries' times, sorted. */
  times: Float64Array;
  /** prefix[i]: the sum of the first i counted amounts (prefix[0] = 0); made from `micros` when first asked. */
  prefix?: BigInt64Array;
  /** Each counted entry's amount; made from `prefix` when first needed. */
  micros?: BigInt64Array;
}

function lowerBound(times: Float64Array, sinceMs: number, above = false): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (times[mid]! < sinceMs || (above && times[mid] === sinceMs)) low = mid + 1;
    else high = mid;
  }
  return low;
}

export class SettledIndex {
  constructor(readonly parts: SettledParts = emptyParts()) {}

  /** Settled entries kept (counted or refunded). */
  get size(): number {
    return this.parts.seconds.length;
  }

  has(id: string): boolean {
    return this.#at(idKey(id)).found;
  }

  /** The running sums (made once from the amounts, then kept). */
  get prefix(): BigInt64Array {
    if (this.parts.prefix !== undefined) return this.parts.prefix;
    const micros = this.parts.micros!;
    const prefix = new BigInt64Array(micros.length + 1);
    let sum = 0n;
    for (let index = 0; index < micros.length; index += 1) {
      sum += micros[index]!;
      if (sum > INT64_MAX) throw new RangeError('the settled sum is beyond 2^63 micro-TRX');
      prefix[index + 1] = sum;
    }
    return (this.parts.prefix = prefix);
  }

  /** Each counted amount (from the running sums when only they were read). */
  get micros(): BigInt64Array {
    if (this.parts.micros !== undefined) return this.parts.micros;
    const prefix = this.parts.prefix!;
    const micros = new BigInt64Array(prefix.length - 1);
    for (let index = 0; index < micros.length; index += 1) micros[index] = prefix[index + 1]! - prefix[index]!;
    return (this.parts.micros = micros);
  }

  /** What the settled entries count in a window starting at `sinceMs`: micro-TRX, how many, the oldest's time. */
  window(sinceMs: number): { micro: bigint; entries: number; oldestMs: number | undefined } {
    const { times } = this.parts;
    const prefix = this.prefix;
    const from = lowerBound(times, sinceMs);
    return {
      micro: prefix[times.length]! - prefix[from]!,
      entries: times.length - from,
      oldestMs: from < times.length ? times[from] : undefined,
    };
  }

  /** How many entries count from before `beforeMs` (their second rounded down: a few may be counted as alive). */
  deadCount(beforeMs: number): number {
    if (!Number.isFinite(beforeMs)) return 0;
    let dead = 0;
    for (const second of this.parts.seconds) if ((second + 1) * 1000 <= beforeMs) dead += 1;
    return dead;
  }

  /**
   * A new index: these settled entries added, and whatever counts from before `beforeMs` left out. The old
   * parts are copied in runs between the new entries' places (no object per old entry).
   */
  merged(entries: readonly SpendEntry[], beforeMs: number): SettledIndex {
    const added = entries
      .map((entry) => {
        const at = entryTime(entry)!;
        const amount = entryAmount(entry);
        return {
          key: idKey(entry.id),
          second: Math.floor(at / 1000),
          at,
          micro: amount === undefined ? undefined : microOf(amount),
        };
      })
      .filter((entry) => entry.at >= beforeMs);
    const { keys, seconds } = this.#alive(beforeMs);
    const byKey = added
      .map((entry) => ({ ...entry, head: entry.key.readUInt32BE(0) }))
      .sort((a, b) => (a.head !== b.head ? a.head - b.head : Buffer.compare(a.key, b.key)));
    const newKeys = Buffer.alloc(keys.length + byKey.length * KEY);
    const newSeconds = new Uint32Array(seconds.length + byKey.length);
    const old = new SettledIndex({ keys, seconds, times: new Float64Array(0), micros: new BigInt64Array(0) });
    let from = 0;
    byKey.forEach((entry, index) => {
      const to = old.#at(entry.key).index;
      keys.copy(newKeys, (from + index) * KEY, from * KEY, to * KEY);
      newSeconds.set(seconds.subarray(from, to), from + index);
      entry.key.copy(newKeys, (to + index) * KEY);
      newSeconds[to + index] = entry.second;
      from = to;
    });
    keys.copy(newKeys, (from + byKey.length) * KEY, from * KEY);
    newSeconds.set(seconds.subarray(from), from + byKey.length);
    // The counted: the dead are the oldest (a run at the start); the new go after old ones of the same time.
    const start = lowerBound(this.parts.times, beforeMs);
    const times = this.parts.times.subarray(start);
    const micros = this.micros.subarray(start);
    const byTime = byKey.filter((entry) => entry.micro !== undefined).sort((a, b) => a.at - b.at);
    const newTimes = new Float64Array(times.length + byTime.length);
    const newMicros = new BigInt64Array(times.length + byTime.length);
    let next = 0;
    byTime.forEach((entry, index) => {
      const to = lowerBound(times, entry.at, true);
      newTimes.set(times.subarray(next, to), next + index);
      newMicros.set(micros.subarray(next, to), next + index);
      newTimes[to + index] = entry.at;
      newMicros[to + index] = entry.micro!;
      next = to;
    });
    newTimes.set(times.subarray(next), next + byTime.length);
    newMicros.set(micros.subarray(next), next + byTime.length);
    return new SettledIndex({ keys: newKeys, seconds: newSeconds, times: newTimes, micros: newMicros });
  }

  /** The keys and seconds without those that count from before `beforeMs`. */
  #alive(beforeMs: number): { keys: Buffer; seconds: Uint32Array } {
    const { keys, seconds } = this.parts;
    if (this.deadCount(beforeMs) === 0) return { keys, seconds };
    const keptKeys = Buffer.alloc(keys.length);
    const keptSeconds = new Uint32Array(seconds.length);
    let kept = 0;
    for (let index = 0; index < seconds.length; index += 1) {
      if ((seconds[index]! + 1) * 1000 <= beforeMs) continue;
      keys.copy(keptKeys, kept * KEY, index * KEY, (index + 1) * KEY);
      keptSeconds[kept] = seconds[index]!;
      kept += 1;
    }
    return { keys: keptKeys.subarray(0, kept * KEY), seconds: keptSeconds.subarray(0, kept) };
  }

  /** Where the key is, or would go. */
  #at(key: Buffer): { found: boolean; index: number } {
    const { keys } = this.parts;
    // The first 32 bits decide almost every step; the whole key only where they are equal.
    const head = key.readUInt32BE(0);
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const there = keys.readUInt32BE(mid * KEY);
      const order = there !== head ? (there < head ? -1 : 1) : keys.compare(key, 0, KEY, mid * KEY, (mid + 1) * KEY);
      if (order === 0) return { found: true, index: mid };
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return { found: false, index: low };
  }
}

function emptyParts(): SettledParts {
  return {
    keys: Buffer.alloc(0),
    seconds: new Uint32Array(0),
    times: new Float64Array(0),
    prefix: new BigInt64Array(1),
  };
}
