/**
 * The notice that earlier order requests from this machine never got an answer, with the commands that
 * list and settle them: said before a command that may order again, so that nobody buys twice unaware.
 */

export interface UnsettledNotice {
  /** The journal's count of pending records of this API and key, other than `exceptId`. */
  pendingCount: (exceptId?: string) => Promise<number>;
  /** `energy order <verb>` with this run's --profile and --base-url. */
  orderCommand: (verb: 'pending' | 'recover') => string;
  note: (line: string) => void;
  /** Where the requests came from: this machine, or the hosts sharing a state store (default this machine). */
  sentFrom?: () => Promise<string>;
}

/**
 * `exceptId` is the order the command is itself about to settle. Quiet when the journal cannot be opened:
 * the command itself will say what is missing.
 */
export async function mentionUnsettledOrders(notice: UnsettledNotice, exceptId?: string): Promise<void> {
  let count: number;
  try {
    count = await notice.pendingCount(exceptId);
  } catch {
    return;
  }
  if (count === 0) return;
  const orders = count === 1 ? '1 order request' : `${count} order requests`;
  const from = (await notice.sentFrom?.().catch(() => undefined)) ?? 'from this machine';
  notice.note(
    `energy: ${orders} sent ${from} never got an answer; see \`${notice.orderCommand('pending')}\`, settle with \`${notice.orderCommand('recover')}\``,
  );
}
