/**
 * The order journal's contract in memory, for the flows' unit tests (ordering, batch, ensure): a pending record
 * per id until it is settled, a refused one replaced, times read from the clock the test gives (the host's).
 */
import { hasOrder, type JournalRecord, type Outcome, type OutcomeInput } from '../../src/journal/record.js';

const JOURNALED_AT = '2026-11-23T09:00:00.000Z';

export class MemoryJournal {
  readonly records = new Map<string, JournalRecord>();
  /** Ids whose pending file is damaged: path and reason, as the disk journal reports them. */
  readonly damaged = new Map<string, { path: string; reason: string }>();
  pruned = 0;

  constructor(private readonly hostNowMs: () => number = () => Date.parse(JOURNALED_AT)) {}

  find(id: string): JournalRecord | undefined {
    return this.records.get(id);
  }

  /** Records with no known outcome, in the order they were journaled. */
  pending(): JournalRecord[] {
    return [...this.records.values()].filter((record) => record.outcome === null);
  }

  /** Records that placed an order, journaled at or after `sinceMs` on the host's clock. */
  ordered(sinceMs: number): JournalRecord[] {
    return [...this.records.values()].filter(
      (record) => hasOrder(record) && Date.parse(record.journaled_at) >= sinceMs,
    );
  }

  unreadableFor(id: string): { path: string; reason: string } | undefined {
    return this.damaged.get(id);
  }

  async begin(id: string, body: string): Promise<{ record: JournalRecord; fresh: boolean }> {
    // As on disk: a pending record, or one that placed an order, is the one to send; a refused one is replaced.
    const earlier = this.records.get(id);
    if (earlier !== undefined && (earlier.outcome === null || hasOrder(earlier)))
      return { record: earlier, fresh: false };
    const record = journalRecord(id, body, null, new Date(this.hostNowMs()).toISOString());
    this.records.set(id, record);
    return { record, fresh: true };
  }

  async markUncertain(record: JournalRecord, reason: string): Promise<JournalRecord> {
    const updated = { ...record, last_error: reason };
    this.records.set(record.client_request_id, updated);
    return updated;
  }

  async settle(record: JournalRecord, outcome: OutcomeInput): Promise<JournalRecord> {
    const at = new Date(this.hostNowMs()).toISOString();
    const settled = { ...record, outcome: { ...outcome, at } as Outcome };
    this.records.set(record.client_request_id, settled);
    return settled;
  }

  async prune(): Promise<number> {
    this.pruned += 1;
    return 0;
  }
}

export function journalRecord(
  id: string,
  body: string,
  outcome: Outcome | null = null,
  journaledAt = JOURNALED_AT,
): JournalRecord {
  return {
    version: 1,
    origin: 'https://api.energy.test',
    key_id: 'sha256:0000000000000000',
    client_request_id: id,
    body,
    journaled_at: journaledAt,
    last_error: null,
    outcome,
  };
}
