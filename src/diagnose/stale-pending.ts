/**
 * Pending records past their term (issue 44): `ensure` no longer counts them in flight, so an address may go
 * without energy while a request nobody will settle sits in the journal. doctor says how many.
 */
import { serverNowMs } from '../domain/server-now.js';
import { pendingEndsAtMs, type JournalRecord } from '../journal/record.js';

/** "; 2 past their term (…)", or '' when none is. */
export function stalePendingNote(records: readonly JournalRecord[], orderCommand: (verb: string) => string): string {
  const now = serverNowMs();
  const stale = records.filter((record) => now > pendingEndsAtMs(record)).length;
  if (stale === 0) return '';
  return `; ${stale} past ${stale === 1 ? 'its' : 'their'} term, no longer counted in flight by ensure (one the server never received: \`${orderCommand('drop')} <id>\`)`;
}
