/** What each resource looks like as a key/value block or a table row in the readable output. */
import type { ClockCheck } from '../client/client.js';
import { describeOffset } from '../client/clock.js';
import type { BalanceResponse, OptionsResponse, Order, QuoteResponse } from '../client/types.js';
import { printable } from '../domain/printable.js';
import { formatInteger, formatSeconds, formatTimestamp, formatYesNo } from './format.js';
import type { Column } from './fit-table.js';
import { shortAddress, shortId, shortTime } from './short-forms.js';

export type Row = readonly [label: string, value: string];

export function balanceRows(balance: BalanceResponse): Row[] {
  return [
    ['Available', `${balance.available_trx} TRX`],
    ['Held', `${balance.held_trx} TRX`],
    ['Status', printable(balance.status, 40)],
  ];
}

/** `energy time`: the server's clock, this host's, and the skew and signing offset between them. */
export function clockRows(check: ClockCheck): Row[] {
  return [
    ['Server time', `${formatTimestamp(check.unix_time)} (${check.unix_time})`],
    ['Local time', `${formatTimestamp(check.local_unix_time)} (${check.local_unix_time})`],
    ['Skew', `${formatSeconds(check.skew_seconds)}: ${describeOffset(check.skew_seconds)}`],
    ['Signing offset', formatSeconds(check.signing_offset_seconds)],
  ];
}

export function optionsRows(options: OptionsResponse): Row[] {
  return [
    ['Energy per portion', formatInteger(options.energy_per_portion)],
    ['Max energy', formatInteger(options.max_energy)],
    ['Durations (hours)', options.duration_hours.join(', ')],
    ['Intake', options.intake_enabled ? 'enabled' : 'disabled'],
  ];
}

/** A quote, and where a TRON node is configured what burning the same energy would cost (rent or burn). */
export function quoteRows(quote: QuoteResponse & { burn_trx?: string | null }): Row[] {
  const burn: Row[] =
    quote.burn_trx === undefined
      ? []
      : [
          ['Burn instead', quote.burn_trx === null ? 'unknown (no price from the TRON node)' : `${quote.burn_trx} TRX`],
          ['Burn assumes', burnAssumes(quote.duration_hours)],
        ];
  return [
    ['Address', quote.address],
    ['Energy', formatInteger(quote.energy)],
    ['Duration', `${quote.duration_hours} h`],
    ['Energy price', `${quote.energy_trx} TRX`],
    ['Activation', quote.activation_trx === null ? 'none' : `${quote.activation_trx} TRX`],
    ['Total', `${quote.total_trx} TRX`],
    ['Can afford', formatYesNo(quote.can_afford)],
    ...burn,
  ];
}

/**
 * What the burn figure assumes (issue 32): the energy used once. Energy recovers over 24 h on TRON, so a
 * rental of D whole days can serve D days of use, and burning that much would cost up to D times the figure.
 */
export function burnAssumes(hours: number): string {
  const days = Math.floor(hours / 24);
  if (days < 2) return 'the energy used once';
  return `the energy used once; it recovers over 24 h, so this ${days}-day rental can serve ${days} days of use (burning for them costs up to ${days} times as much)`;
}

/** A quote as shown before `order create`'s consent question (stderr), a line each. */
export function quoteDetails(quote: QuoteResponse): string[] {
  return ['Quote:', ...quoteRows(quote).map(([label, value]) => `  ${label.padEnd(12)}  ${value}`)];
}

export function orderRows(order: Order): Row[] {
  const rows: Row[] = [
    ['ID', order.id],
    ['Client request ID', order.client_request_id],
    ['Address', order.address],
    ['Energy', formatInteger(order.energy)],
    ['Duration', `${order.duration_hours} h`],
    ['Total', `${order.total_trx} TRX`],
    ['Status', printable(order.status, 40)],
    ['Delivery final', formatYesNo(order.delivery_final)],
    ['Lifecycle final', formatYesNo(order.lifecycle_final)],
    ['Created', formatTimestamp(order.created_at)],
    ['Updated', formatTimestamp(order.updated_at)],
  ];
  if (order.failure !== null)
    rows.push(['Failure', `${printable(order.failure.code, 60)}: ${printable(order.failure.message)}`]);
  return rows;
}

/**
 * `order list`'s columns. The minimum widths line up the pages of `order list --all` in a pipe; on a narrow
 * terminal the date, then the id, then the address take their short forms, a long status or failure code is
 * cut, and HOURS then FINAL then CREATED, and last ENERGY, are left out (80 columns keep ID, CREATED,
 * ADDRESS, ENERGY, TOTAL_TRX, STATUS, FAILURE; 60 keep ID, ADDRESS, TOTAL_TRX, STATUS, FAILURE): why an
 * order failed stays in the table it is read in, where ENERGY is the order's own figure (`order get` has it).
 * A status or failure code cut short is written whole on stderr.
 */
export const ORDER_COLUMNS: readonly Column[] = [
  { head: 'ID', width: 36, short: { step: 2, form: shortId } },
  { head: 'CREATED', width: 25, short: { step: 1, form: (cell) => shortTime(cell) }, drop: 7 },
  { head: 'ADDRESS', width: 34, short: { step: 3, form: shortAddress } },
  { head: 'ENERGY', width: 9, drop: 8 },
  { head: 'HOURS', width: 5, drop: 5 },
  { head: 'TOTAL_TRX', width: 16 },
  { head: 'STATUS', width: 12, cut: 4, spill: (cell, row) => `energy: order ${row[0]}: status ${cell}` },
  // The failure's code apart from the status (as JSON and CSV keep them), empty (`-` in a pipe) for none; never
  // left out, cut on a narrow terminal and then written whole on stderr.
  {
    head: 'FAILURE',
    width: 9,
    cut: 4,
    spill: (cell, row) => `energy: order ${row[0]}: failed: ${cell}`,
  },
  { head: 'FINAL', width: 9, drop: 6 },
];

export function orderCells(order: Order): string[] {
  // Which of the two ends it reached: a failed order that never delivered is final in its lifecycle only.
  const final = order.lifecycle_final
    ? order.delivery_final
      ? 'all'
      : 'lifecycle'
    : order.delivery_final
      ? 'delivery'
      : 'no';
  return [
    order.id,
    formatTimestamp(order.created_at),
    order.address,
    formatInteger(order.energy),
    String(order.duration_hours),
    order.total_trx,
    printable(order.status, 40),
    order.failure === null ? '' : printable(order.failure.code, 60),
    final,
  ];
}
