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
import { createHash } from 'node:crypto';
import { entryAmount, entryTime, type SpendEntry } from './spend-book.js';

const KEY = 16;
const INT64_MAX = 2n ** 63n - 1n;

/** The key an id is kept under. */
export function idKey(id: string): Buffer {
  return createHash('sha256').update(id, 'utf8').digest().subarray(0, KEY);
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
  keys: Buffer;
  seconds: Uint32Array;
  times: Float64Array;
  /** prefix[i]: the sum of the first i counted amounts (prefix[0] = 0). */
  prefix: BigInt64Array;
}

function lowerBound(times: Float64Array, sinceMs: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (times[mid]! < sinceMs) low = mid + 1;
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
    return this.#find(idKey(id));
  }

  /** What the settled entries count in a window starting at `sinceMs`: micro-TRX, how many, the oldest's time. */
  window(sinceMs: number): { micro: bigint; entries: number; oldestMs: number | undefined } {
    const { times, prefix } = this.parts;
    const from = lowerBound(times, sinceMs);
    return {
      micro: prefix[times.length]! - prefix[from]!,
      entries: times.length - from,
      oldestMs: from < times.length ? times[from] : undefined,
    };
  }

  /** How many entries count from before `beforeMs` (their second rounded down: a few may be counted as alive). */
  deadCount(beforeMs: number): number {
    let dead = 0;
    for (const second of this.parts.seconds) if ((second + 1) * 1000 <= beforeMs) dead += 1;
    return dead;
  }

  /** A new index: these settled entries added, and whatever counts from before `beforeMs` left out. */
  merged(entries: readonly SpendEntry[], beforeMs: number): SettledIndex {
    const { keys, seconds, times, prefix } = this.parts;
    const added = entries.map((entry) => {
      const at = entryTime(entry)!;
      const amount = entryAmount(entry);
      return {
        key: idKey(entry.id),
        second: Math.floor(at / 1000),
        at,
        micro: amount === undefined ? undefined : microOf(amount),
      };
    });
    const alive = added.filter((entry) => entry.at >= beforeMs).sort((a, b) => Buffer.compare(a.key, b.key));
    // The keys: both sorted lists merged, the dead left out (copied into place: no object per key).
    const keptKeys = Buffer.alloc((seconds.length + alive.length) * KEY);
    const keptSeconds = new Uint32Array(seconds.length + alive.length);
    let kept = 0;
    let next = 0;
    const keep = (source: Buffer, at: number, second: number) => {
      source.copy(keptKeys, kept * KEY, at, at + KEY);
      keptSeconds[kept] = second;
      kept += 1;
    };
    for (let index = 0; index <= seconds.length; index += 1) {
      const at = index * KEY;
      const last = index === seconds.length;
      while (next < alive.length && (last || keys.compare(alive[next]!.key, 0, KEY, at, at + KEY) > 0)) {
        keep(alive[next]!.key, 0, alive[next]!.second);
        next += 1;
      }
      if (!last && (seconds[index]! + 1) * 1000 > beforeMs) keep(keys, at, seconds[index]!);
    }
    // The counted: both sorted by time, merged, the running sum taken again.
    const counted = alive.filter((entry) => entry.micro !== undefined).sort((a, b) => a.at - b.at);
    const from = lowerBound(times, beforeMs);
    const total = times.length - from + counted.length;
    const newTimes = new Float64Array(total);
    const newPrefix = new BigInt64Array(total + 1);
    let sum = 0n;
    let old = from;
    let fresh = 0;
    for (let index = 0; index < total; index += 1) {
      const takeOld = fresh >= counted.length || (old < times.length && times[old]! <= counted[fresh]!.at);
      if (takeOld) {
        newTimes[index] = times[old]!;
        sum += prefix[old + 1]! - prefix[old]!;
        old += 1;
      } else {
        newTimes[index] = counted[fresh]!.at;
        sum += counted[fresh]!.micro!;
        fresh += 1;
      }
      if (sum > INT64_MAX) throw new RangeError('the settled sum is beyond 2^63 micro-TRX');
      newPrefix[index + 1] = sum;
    }
    return new SettledIndex({
      keys: keptKeys.subarray(0, kept * KEY),
      seconds: keptSeconds.subarray(0, kept),
      times: newTimes,
      prefix: newPrefix,
    });
  }

  #find(key: Buffer): boolean {
    const { keys } = this.parts;
    let low = 0;
    let high = this.size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const order = keys.compare(key, 0, KEY, mid * KEY, (mid + 1) * KEY);
      if (order === 0) return true;
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return false;
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
