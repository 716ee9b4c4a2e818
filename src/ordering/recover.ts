/**
 * Settling journaled order requests whose outcome is unknown (`energy order recover`): each record's exact
 * bytes are sent again and what the server says is recorded. A request the server committed comes back as
 * its order (200); one it never committed is placed now, once, so that needs consent as `order create`
 * does. The newest orders are looked through first, so that requests already committed are settled
 * without a question.
 */
import type { EnergyClient } from '../client/client.js';
import type { Order } from '../client/types.js';
import { CliError } from '../domain/errors.js';
import { SomeFailedError } from '../domain/cli-errors.js';
import { sumAmounts } from '../domain/money.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { recordedOrder, type JournalRecord } from '../journal/record.js';
import { formatInteger } from '../domain/text-forms.js';
import { requireConsent, type Confirm } from './consent.js';
import { findRecentOrders } from './find-recent.js';
import { sendJournaled } from './send-journaled.js';

export interface RecoverItem {
  client_request_id: string;
  outcome: 'created' | 'existing' | 'refused' | 'unknown';
  order: Order | null;
  error: { exit_code: number; message: string } | null;
}

export interface RecoverDeps {
  client: Pick<EnergyClient, 'sendOrderBody' | 'orderPages' | 'listOrders'>;
  journal: Pick<OrderJournal, 'find' | 'settle' | 'markUncertain'>;
  /** Asks for consent to resend; undefined where nobody can answer. */
  confirm: Confirm | undefined;
  note: (line: string) => void;
  recoverCommand: (clientRequestId: string) => string;
}

export interface Recovery {
  items: RecoverItem[];
  /** The run's error once the items are shown: the one failure of a single record, or a count. */
  failure: CliError | undefined;
}

/** Resends each record (after consent for those the server's newest orders do not show), in order. */
export async function recoverRecords(deps: RecoverDeps, records: JournalRecord[], yes: boolean): Promise<Recovery> {
  const oldest = Math.min(...records.map((record) => Date.parse(record.journaled_at)));
  const ids = new Set(records.map((record) => record.client_request_id));
  const committed = await findRecentOrders(deps.client, ids, oldest);
  await consentForUncommitted(
    deps,
    records.filter((record) => !committed.has(record.client_request_id)),
    yes,
  );
  const items: RecoverItem[] = [];
  const failures: CliError[] = [];
  for (const record of records) {
    const id = record.client_request_id;
    try {
      const { order, created } = await sendJournaled(deps, record);
      items.push({ client_request_id: id, outcome: created ? 'created' : 'existing', order, error: null });
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      failures.push(error);
      const outcome = (await deps.journal.find(id))?.outcome === null ? 'unknown' : 'refused';
      const reported = { exit_code: error.exitCode, message: error.message };
      items.push({ client_request_id: id, outcome, order: null, error: reported });
    }
  }
  return { items, failure: runFailure(failures, records.length) };
}

function runFailure(failures: CliError[], count: number): CliError | undefined {
  if (failures.length === 1 && count === 1) return failures[0];
  if (failures.length === 0) return undefined;
  return new SomeFailedError(`${failures.length} of ${count} requests could not be settled (see above)`);
}

/** Placing what the server never received spends money: show it, and ask as `order create` does. */
async function consentForUncommitted(deps: RecoverDeps, uncommitted: JournalRecord[], yes: boolean): Promise<void> {
  if (uncommitted.length === 0) return;
  const orders = uncommitted.map((record) => ({ record, order: recordedOrder(record) }));
  const total = sumAmounts(orders.map(({ order }) => order.expected_total_trx));
  const n = uncommitted.length === 1 ? '1 request' : `${uncommitted.length} requests`;
  // Said before anything is sent, with or without a prompt: this may spend.
  deps.note(`energy: the server's newest orders do not show ${n}; resending places each one that it never received`);
  await requireConsent({
    confirm: deps.confirm,
    given: yes,
    details: orders.map(
      ({ record, order }) =>
        `  ${record.client_request_id}  ${order.address}  ${formatInteger(order.energy)} energy  ${order.duration_hours} h  ${order.expected_total_trx} TRX`,
    ),
    question: `Resend ${n}, at most ${total} TRX in all?`,
    refusal: `not resending ${n} (up to ${total} TRX) that may place orders now, without consent`,
    hint: 'add --yes to resend them; `energy order pending` lists them',
    note: deps.note,
  });
}
