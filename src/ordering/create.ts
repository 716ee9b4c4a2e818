/**
 * Placing one order for `energy order create`: local checks, a quote unless the price is given (and the
 * options, so that closed intake stops the run before any order), consent, then one request that is
 * journaled before it leaves. A client_request_id already in the journal resends the journaled bytes
 * instead (no new quote), so that a fixed-id cron job gets the same order back on every run; without one,
 * an earlier run's request for the same rental whose outcome is unknown is settled first
 * (interrupted-run.ts), so that a re-run after an interrupt never places a second order beside it.
 */
import { randomUUID } from 'node:crypto';
import type { CreatedOrder, EnergyClient } from '../client/client.js';
import { orderRequestBody } from '../client/client.js';
import type { OptionsResponse, QuoteResponse } from '../client/types.js';
import { ApiError, ResponseShapeError } from '../domain/errors.js';
import { UnreadableRecordError } from '../domain/journal-errors.js';
import type { OrderJournal } from '../journal/order-journal.js';
import { hasOrder, mayHaveOrder, recordedOrder, type JournalRecord } from '../journal/record.js';
import { formatIsoTime } from '../domain/text-forms.js';
import { refuseUnaffordable } from './afford.js';
import { refuseAboveMax, requireConsent, type Confirm } from './consent.js';
import { INTAKE_DISABLED, intakeDisabledError } from './intake.js';
import { interruptedRecords, settleInterrupted } from './interrupted-run.js';
import { refuseOtherParameters } from './reused-id.js';
import { sendJournaled } from './send-journaled.js';

/** What `order create` was asked for. */
export interface CreateRequest {
  address: string;
  energy: number;
  hours: number;
  /** --expected-total: pay exactly this, and consent to it. */
  expectedTotal?: string | undefined;
  maxTotal?: string | undefined;
  yes: boolean;
  clientRequestId?: string | undefined;
}

/** What placing an order uses: the API's quote and order calls, the journal, and a way to ask for consent. */
export interface CreateDeps {
  client: Pick<EnergyClient, 'quote' | 'sendOrderBody' | 'balance' | 'options'>;
  journal: Pick<OrderJournal, 'find' | 'unreadableFor' | 'begin' | 'settle' | 'markUncertain' | 'prune' | 'pending'>;
  /** Asks for consent; undefined where nobody can answer (then only --yes or --expected-total is consent). */
  confirm: Confirm | undefined;
  /** The quote as shown before the consent question, a line each. */
  quoteDetails: (quote: QuoteResponse) => readonly string[];
  note: (line: string) => void;
  /** The command line that settles a request, e.g. `energy --profile prod order recover <id>`. */
  recoverCommand: (clientRequestId: string) => string;
  newRequestId?: () => string;
}

/** Places the order (or gets back the one a journaled request placed); says so when the server answered 200. */
export async function createOrder(deps: CreateDeps, request: CreateRequest): Promise<CreatedOrder> {
  await deps.journal.prune();
  // A new --client-request-id asks for another order; none means "this rental", which an earlier run may hold.
  const earlier = request.clientRequestId === undefined ? await settleInterrupted(deps, request) : undefined;
  if (earlier !== undefined) return earlier;
  const record = await recordToSend(deps, request);
  const result = await sendJournaled(deps, record);
  if (!result.created)
    deps.note(
      `energy: the server answered 200 (not 201 Created) with the order for client_request_id ${record.client_request_id}; showing it`,
    );
  return result;
}

/**
 * `order create --dry-run`: the same checks, quote and consent as `createOrder`, then the exact request it
 * would send; nothing is journaled (no record, no pruning) and nothing goes to the order endpoint.
 */
export async function previewOrder<P>(
  deps: CreateDeps,
  request: CreateRequest,
  preview: (body: string) => P,
): Promise<P> {
  const known = await resendable(deps, request);
  if (known !== undefined) return preview(known.body);
  const earlier =
    request.clientRequestId === undefined ? (await interruptedRecords(deps.journal, request))[0] : undefined;
  if (earlier !== undefined) {
    deps.note(
      `energy: an earlier run sent this same order (client_request_id ${earlier.client_request_id}) and never learned whether it was placed: a real run resends that request first, shown here`,
    );
    return preview(earlier.body);
  }
  return preview((await newOrder(deps, request, false)).body);
}

/**
 * The journal record to send: the one already journaled for this client_request_id (same bytes as
 * before), or a new one after a quote and consent.
 */
async function recordToSend(deps: CreateDeps, request: CreateRequest): Promise<JournalRecord> {
  const known = await resendable(deps, request);
  if (known !== undefined) return known;
  const { requestId, body } = await newOrder(deps, request, true);
  const { record, fresh } = await deps.journal.begin(requestId, body);
  // Another run journaled this id a moment ago: send its bytes, so that both runs ask for one order.
  if (!fresh) refuseOtherParameters(record, request, REUSED_ID);
  return record;
}

/**
 * The journaled record for this client_request_id that is to be sent again, once consented to. Records
 * whose request was refused, or never left, placed nothing: the id starts afresh (undefined).
 */
async function resendable(deps: CreateDeps, request: CreateRequest): Promise<JournalRecord | undefined> {
  const id = request.clientRequestId;
  const known = id === undefined ? undefined : await deps.journal.find(id);
  // A damaged record may stand for a placed order: refuse its id before a quote is asked for, not after.
  const damaged = id === undefined || known !== undefined ? undefined : await deps.journal.unreadableFor(id);
  if (damaged !== undefined) throw new UnreadableRecordError(id!, damaged.path, damaged.reason);
  if (known === undefined || !mayHaveOrder(known)) return undefined;
  refuseOtherParameters(known, request, REUSED_ID);
  if (!hasOrder(known)) await consentToResend(deps, known, request);
  deps.note(
    `energy: client_request_id ${known.client_request_id} was sent from this machine at ${formatIsoTime(known.journaled_at)}; resending that same request (no new quote)`,
  );
  return known;
}

/** A new order's id and body bytes, after a quote and consent (and, when `placing`, a look at the balance). */
async function newOrder(
  deps: CreateDeps,
  request: CreateRequest,
  placing: boolean,
): Promise<{ requestId: string; body: string }> {
  const expectedTotal = await agreeOnPrice(deps, request, placing);
  const requestId = request.clientRequestId ?? (deps.newRequestId ?? randomUUID)();
  const body = orderRequestBody({
    client_request_id: requestId,
    address: request.address,
    energy: request.energy,
    duration_hours: request.hours,
    expected_total_trx: expectedTotal,
  });
  return { requestId, body };
}

/** The same id for another address, energy or duration is a mistake to stop before anything is sent. */
const REUSED_ID = { hint: 'use a new --client-request-id for a different order' };

/** A journaled request whose outcome is unknown may place the order now: it needs consent like a new one. */
async function consentToResend(deps: CreateDeps, record: JournalRecord, request: CreateRequest): Promise<void> {
  const total = recordedOrder(record).expected_total_trx;
  await refuseAboveMax(total, request.maxTotal, 'the journaled total');
  await requireConsent({
    confirm: deps.confirm,
    given: request.yes || request.expectedTotal !== undefined,
    details: [
      `An earlier run sent this order (${formatIsoTime(record.journaled_at)}) and never learned whether it was placed.`,
    ],
    question: `Resend it? It returns the order if it exists, or places it now for ${total} TRX.`,
    refusal: `not resending client_request_id ${record.client_request_id} (${total} TRX) without consent`,
    hint: 'add --yes to resend it',
    note: deps.note,
  });
}

/** Returns the total to send as expected_total_trx once the user has agreed to it. */
async function agreeOnPrice(deps: CreateDeps, request: CreateRequest, placing: boolean): Promise<string> {
  if (request.expectedTotal !== undefined) {
    await refuseAboveMax(request.expectedTotal, request.maxTotal);
    openIntake(deps, placing, (await Promise.allSettled([deps.client.options()]))[0]);
    return request.expectedTotal;
  }
  const { address, energy, hours } = request;
  // Side by side: no time added. A closed intake is the answer even when the quote is refused for it.
  const [options, quoted] = await Promise.allSettled([
    deps.client.options(),
    deps.client.quote({ address, energy, duration_hours: hours }),
  ]);
  openIntake(deps, placing, options);
  if (quoted.status === 'rejected') throw quoted.reason;
  const quote = quoted.value;
  await refuseAboveMax(quote.total_trx, request.maxTotal);
  // Before consent: a yes to an order the balance cannot pay would only end in the server's refusal.
  if (placing)
    await refuseUnaffordable(deps.client, { total: quote.total_trx, quoteRefused: !quote.can_afford, quotes: 1 });
  await requireConsent({
    confirm: deps.confirm,
    given: request.yes,
    details: deps.quoteDetails(quote),
    question: `Place this order for ${quote.total_trx} TRX?`,
    refusal: `not placing an order for ${quote.total_trx} TRX without consent`,
    hint: `add --yes to accept the quoted price, or --expected-total ${quote.total_trx} to pay exactly that`,
    note: deps.note,
  });
  return quote.total_trx;
}

/**
 * Closed intake ends a real run before any order (exit 5); a dry run, which sends none, says so. The options
 * are read only for this: when the server answers them with an error status or a body that breaks the
 * spec, a note says so and the order endpoint, which is the authority, decides. No answer at all (the
 * network, TLS, an interrupt) or a 401 ends the run: the order would go the same way.
 */
function openIntake(deps: CreateDeps, placing: boolean, read: PromiseSettledResult<OptionsResponse>): void {
  if (read.status === 'rejected') {
    const answered = read.reason instanceof ApiError || read.reason instanceof ResponseShapeError;
    if (!answered) throw read.reason;
    deps.note(`energy: could not read the options to check intake (${read.reason.message}); going on`);
    return;
  }
  if (read.value.intake_enabled) return;
  if (placing) throw intakeDisabledError();
  deps.note(`energy: ${INTAKE_DISABLED}: a real run would place no order now`);
}
