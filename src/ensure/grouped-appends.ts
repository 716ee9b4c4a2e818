/**
 * The --max-spend ledger's appends of one run, written together where they meet (spend-ceiling.ts): while one
 * write is on its way, the events that come meanwhile wait and go in the next write, one for all of them (one
 * statement in PostgreSQL). Each caller's promise settles once the write holding its events has: an order is in
 * the ledger, with its own time, before its caller goes on, as when each wrote alone. Nothing is held back to
 * wait for company: a write starts as soon as the one before has ended.
 */
import type { SpendEvent, SpendLedger } from '../journal/spend-ledger.js';

interface Waiting {
  events: readonly SpendEvent[];
  nowMs: number;
  written: () => void;
  failed: (error: unknown) => void;
}

export class GroupedAppends implements Pick<SpendLedger, 'append'> {
  #waiting: Waiting[] = [];
  #writing = false;

  constructor(private readonly ledger: Pick<SpendLedger, 'append'>) {}

  append(events: readonly SpendEvent[], nowMs: number): Promise<void> {
    return new Promise((written, failed) => {
      this.#waiting.push({ events, nowMs, written, failed });
      if (!this.#writing) void this.#write();
    });
  }

  async #write(): Promise<void> {
    this.#writing = true;
    while (this.#waiting.length > 0) {
      const group = this.#waiting.splice(0);
      try {
        await this.ledger.append(
          group.flatMap((one) => one.events),
          Math.max(...group.map((one) => one.nowMs)),
        );
        for (const one of group) one.written();
      } catch (error) {
        // Each caller hears the failure of the write that held its events, as if it had written alone.
        for (const one of group) one.failed(error);
      }
    }
    this.#writing = false;
  }
}
