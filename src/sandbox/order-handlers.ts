/** Handlers for creating, listing and reading orders. */
import type { CreateOrderRequest, OrderList } from '../client/types.js';
import { INTEGER_TEXT, UUID_TEXT } from '../domain/patterns.js';
import { compareAmounts } from '../domain/money.js';
import { currentQuote, intakeDisabled } from './account-handlers.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { OrderRecord } from './order-lifecycle.js';
import { jsonReply, problemReply, validationReply, type Reply } from './reply.js';
import type { RouteContext } from './route-context.js';
import { validateOrder } from './validate-request.js';

const DEFAULT_LIMIT = 20;

function sameRequest(record: OrderRecord, request: CreateOrderRequest): boolean {
  return (
    record.address === request.address &&
    record.energy === request.energy &&
    record.durationHours === request.duration_hours &&
    compareAmounts(record.totalTrx, request.expected_total_trx) === 0
  );
}

export function postOrder({ core, body, nowMs }: RouteContext): Reply {
  const validated = validateOrder(body);
  if (!validated.ok) return validationReply(validated.errors);
  const request = validated.value;
  const { book } = core;

  // A retry of an order that exists answers with that order and changes nothing (200, not 201).
  const existing = book.findByClientRequestId(request.client_request_id);
  if (existing !== undefined) {
    if (sameRequest(existing, request)) return jsonReply(200, book.view(existing, nowMs));
    return problemReply(
      409,
      'IDEMPOTENCY_MISMATCH',
      `client_request_id "${request.client_request_id}" was already used for order ${existing.id} with other parameters.`,
      { field: 'client_request_id' },
    );
  }
  if (!core.intake) return intakeDisabled();
  const quote = currentQuote(core, request);
  if (compareAmounts(quote.total_trx, request.expected_total_trx) !== 0) {
    return problemReply(
      409,
      'PRICE_CHANGED',
      `The current total is ${quote.total_trx} TRX, not the expected ${request.expected_total_trx} TRX; get a new quote.`,
      { field: 'expected_total_trx' },
    );
  }
  if (compareAmounts(book.available, quote.total_trx) < 0) {
    return problemReply(
      409,
      'INSUFFICIENT_BALANCE',
      `The order costs ${quote.total_trx} TRX but only ${book.available} TRX is available.`,
    );
  }
  return jsonReply(201, book.view(book.create(request, quote.total_trx, nowMs), nowMs));
}

function queryProblem(code: string, field: string, message: string): Reply {
  return validationReply([{ code, field, message }]);
}

export function listOrders({ core, query, nowMs }: RouteContext): Reply {
  // Decoding the query only to read it; the signature was checked over the raw text.
  const params = new URLSearchParams(query);
  const limits = params.getAll('limit');
  const cursors = params.getAll('cursor');
  if (limits.length > 1) return queryProblem('INVALID_LIMIT', 'limit', 'limit may be given only once');
  if (cursors.length > 1) return queryProblem('INVALID_CURSOR', 'cursor', 'cursor may be given only once');

  let limit = DEFAULT_LIMIT;
  const limitText = limits[0];
  if (limitText !== undefined) {
    limit = INTEGER_TEXT.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= 1 && limit <= core.maxPageSize)) {
      return queryProblem('INVALID_LIMIT', 'limit', `limit must be an integer from 1 to ${core.maxPageSize}`);
    }
  }
  let fromSeq: number | undefined;
  const cursorText = cursors[0];
  if (cursorText !== undefined) {
    fromSeq = decodeCursor(cursorText);
    if (fromSeq === undefined || fromSeq >= core.book.size) {
      return queryProblem('INVALID_CURSOR', 'cursor', 'cursor is not a next_cursor this server issued');
    }
  }
  const page = core.book.page(fromSeq, limit, core.options.listOrder === 'oldest-first');
  const first = page.records[0];
  // The first page once more, under a cursor of its own, before the rest (SandboxOptions.repeatFirstPage).
  const again = core.options.repeatFirstPage && cursorText === undefined && first !== undefined;
  const body: OrderList = {
    items: page.records.map((record) => core.book.view(record, nowMs)),
    next_cursor: again ? encodeCursor(first.seq, true) : page.nextSeq === null ? null : encodeCursor(page.nextSeq),
  };
  return jsonReply(200, body);
}

export function getOrder({ core, id, nowMs }: RouteContext): Reply {
  const key = (id ?? '').toLowerCase();
  const record = UUID_TEXT.test(key) ? core.book.findById(key) : undefined;
  if (record === undefined) {
    return problemReply(404, 'ORDER_NOT_FOUND', `No order with id ${JSON.stringify(id ?? '')}.`);
  }
  return jsonReply(200, core.book.view(record, nowMs));
}
