/** Queued faults: the first one whose match fits a request applies, and is used up after `times` requests. */
import type { Fault } from './types.js';

interface Queued {
  fault: Fault;
  remaining: number;
}

const KINDS = new Set(['status', 'delay', 'hold', 'drop', 'drop-after-commit', 'hold-after-commit', 'raw']);

export class FaultQueue {
  private queue: Queued[] = [];

  inject(fault: Fault): void {
    if (!KINDS.has(fault.kind)) throw new RangeError(`unknown fault kind ${JSON.stringify(fault.kind)}`);
    const times = fault.times ?? 1;
    if (!Number.isInteger(times) || times < 1)
      throw new RangeError(`fault times must be a positive integer, got ${times}`);
    if (
      (fault.kind === 'status' || fault.kind === 'raw') &&
      !(Number.isInteger(fault.status) && fault.status >= 100 && fault.status <= 599)
    ) {
      throw new RangeError(`fault status must be an HTTP status, got ${fault.status}`);
    }
    if (fault.kind === 'delay' && !(fault.ms >= 0)) throw new RangeError(`fault delay must be ≥ 0 ms, got ${fault.ms}`);
    if (fault.kind === 'hold-after-commit' && fault.ms !== undefined && !(fault.ms >= 0)) {
      throw new RangeError(`fault hold must be ≥ 0 ms, got ${fault.ms}`);
    }
    this.queue.push({ fault, remaining: times });
  }

  clear(): void {
    this.queue = [];
  }

  /** Drops the queued faults of one kind, leaving the others. */
  drop(kind: Fault['kind']): void {
    this.queue = this.queue.filter(({ fault }) => fault.kind !== kind);
  }

  /** The fault for this request, if any, counting it as used. */
  take(method: string, path: string): Fault | undefined {
    const index = this.queue.findIndex(({ fault }) => {
      const match = fault.match ?? {};
      return (
        (match.method === undefined || match.method.toUpperCase() === method.toUpperCase()) &&
        (match.path === undefined || match.path === path)
      );
    });
    const queued = this.queue[index];
    if (queued === undefined) return undefined;
    queued.remaining -= 1;
    if (queued.remaining === 0) this.queue.splice(index, 1);
    return queued.fault;
  }
}
