/** What `ensure` reports per address, and what it needs from the rest of the program. */
import type { EnergyClient } from '../client/client.js';
import type { CliError } from '../domain/errors.js';
import type { Order, QuoteResponse } from '../client/types.js';
import type { OrderJournal } from '../journal/order-journal.js';
import type { JournalRecord } from '../journal/record.js';
import type { Confirm } from '../ordering/consent.js';
import type { TronNode } from '../tron/tron-node.js';
import type { ServerClock } from '../ordering/server-clock.js';
import type { ClaimAddresses, ClaimHolder } from '../state/address-claim.js';
import type { KnownAccounts } from '../state/known-accounts.js';
import type { Need } from './need-id.js';
import type { FinalOrders } from '../journal/final-orders.js';
import type { SharedOrderList } from '../state/shared-list.js';
import type { CycleList } from './cycle-list.js';
import type { CycleClock } from './cycle-clock.js';
import type { LimitBefore } from './landed.js';

/**
 * enough: it has the target now · within_tolerance: short by no more than --tolerance (drift), so nothing
 * bought · in_flight: enough once undelivered orders arrive · bought: ordered now · in_flight_elsewhere:
 * another host ordered for this need at the same moment (the server answered our derived id with its order,
 * or a 409 and the list shows the order with that id) · would_buy: --dry-run · failed: the address cannot be
 * supplied (a contract, no tokens to send), or the order (or its confirmation on chain, with --wait) failed ·
 * not_on_chain: an order delivered and unexpired that the TRON node does not show (nothing bought again) ·
 * delivery_failed: the address's last order failed at delivery, and the next one waits (backs off) ·
 * spend_limit: the order would pass --max-spend. Each of the last three has `error` set, as `failed` has ·
 * claimed_elsewhere: another host sharing the state store holds this address's claim (deciding it now, or,
 * for a service, it decided it less than an interval ago): skipped, nothing read or bought, not a failure;
 * `claimed_by` says which host and until when (state/address-claim.ts).
 */
export type EnsureReason =
  | 'enough'
  | 'within_tolerance'
  | 'in_flight'
  | 'bought'
  | 'in_flight_elsewhere'
  | 'would_buy'
  | 'failed'
  | 'not_on_chain'
  | 'delivery_failed'
  | 'spend_limit'
  | 'claimed_elsewhere';

/** One line of `ensure --json`: the contract's six keys, then what was (or would be) bought and any error. */
export interface EnsureItem {
  address: string;
  /** Energy available when ensure read the address, before anything it bought; null when skipped unread. */
  available: number | null;
  /** With --wait, what the TRON node shows once the order was delivered (absent otherwise). */
  available_after?: number;
  in_flight: number;
  target: number;
  bought: Order | null;
  reason: EnsureReason;
  /** Energy ordered (or that would be, with --dry-run); 0 when nothing was needed. */
  to_buy: number;
  /** The quoted total for `to_buy`, or null. */
  total_trx: string | null;
  /** What burning `to_buy` energy would cost at the chain's price instead (rent or burn), when it could be read. */
  burn_trx?: string | null;
  /** True when `to_buy` was cut to the API's max_energy. */
  capped: boolean;
  error: { exit_code: number; message: string } | null;
  /** With --transfers: the energy of one transfer from this address (simulated), or null when it cannot send. */
  per_transfer?: number | null;
  /** With --transfers: its bandwidth cannot pay for every transfer, so some burn TRX for bandwidth. */
  bandwidth_short?: boolean;
  /** claimed_elsewhere: the host that holds the address, and until when. */
  claimed_by?: ClaimHolder;
  /** Bought (or would be) before it was short: a rental it counts ends at `ends_at` (--renew-before, renewal.ts). */
  early?: { reason: 'renewal'; ends_at: string };
}

/** `--transfers n [--to] [--token]`: the target is n times one simulated transfer from each address. */
export interface TransfersTarget {
  count: number;
  token: string;
  /** The recipient simulated; undefined: one holding none of the token (a new storage slot, the dearer case). */
  to: string | undefined;
}

export interface EnsureOptions {
  addresses: readonly string[];
  /** A service's list read again at each cycle (`--file`), given the list it had; undefined: `addresses` always. */
  rereadAddresses?: ((last: readonly string[]) => Promise<readonly string[]>) | undefined;
  /** --energy: the same target for every address; undefined with --transfers. */
  energy: number | undefined;
  transfers?: TransfersTarget | undefined;
  /** --tolerance in basis points (100 = 1%): drift that neither buys nor fails a --wait confirmation. */
  toleranceBp: number;
  hours: number;
  maxTotal?: string | undefined;
  yes: boolean;
  dryRun: boolean;
  /** Buy for the addresses the balance covers (the server refuses the rest) instead of refusing them all. */
  placeWhatFits?: boolean | undefined;
  /** Seconds to follow each order with --wait; undefined: do not wait. */
  waitSeconds?: number | undefined;
  /** --max-spend (with --budget) as parsed once (commands/ensure-options.ts); its rule is spend-ceiling.ts. */
  ceiling?: Ceiling | undefined;
  /** --renew-before in ms (server clock): buy now for a rental that ends within it (renewal.ts); 0: at the end. */
  renewBeforeMs?: number | undefined;
}

/** What `ensure` asks of the API: reads, quotes and orders (narrow, so that tests can give a fake). */
export type EnsureClient = Pick<
  EnergyClient,
  'checkClock' | 'options' | 'orderPages' | 'getOrder' | 'quote' | 'balance' | 'sendOrderBody'
>;

/** What `ensure` asks of the order journal. */
export type EnsureJournal = Pick<
  OrderJournal,
  'begin' | 'settle' | 'markUncertain' | 'pending' | 'ordered' | 'prune' | 'find'
>;

/** What `ensure` asks of the TRON node. */
export type EnsureNode = Pick<
  TronNode,
  'getAccountResource' | 'getAccount' | 'simulateTransfer' | 'getEnergyPrice' | 'url'
>;

/** The API side, opened only when some address is short: a run with enough energy never touches it. */
export interface EnsureApi {
  client: EnsureClient;
  journal: EnsureJournal;
  /** `energy … order recover [id]` for this run's profile and base URL. */
  recoverCommand: (clientRequestId?: string) => string;
  /** `energy … order wait <id>` for this run's profile and base URL. */
  waitCommand: (orderId: string) => string;
}

export interface EnsureDeps {
  node: EnsureNode;
  api: () => Promise<EnsureApi>;
  /** How to ask for consent to buy; undefined where nobody can answer (a pipe, cron): only --yes is consent then. */
  confirm: Confirm | undefined;
  /** Ends the process at once with `code` (a second signal to the service): the entry's own exit, when it has one. */
  exit?: ((code: number) => void) | undefined;
  /** The process's environment and interrupt (the service's test seams and signals read them). */
  env: NodeJS.ProcessEnv;
  interrupt?: AbortSignal | undefined;
  note: (line: string) => void;
  /** A note about one address under `key`: a service writes it once per change (once-notes.ts); else `note`. */
  addressNote?: ((key: string, line: string) => void) | undefined;
  /** Progress lines (stderr), or undefined to stay quiet. */
  progress: ((line: string) => void) | undefined;
  /** `--verbose` lines (stderr), or undefined. */
  trace?: ((line: string) => void) | undefined;
  /**
   * Claims the addresses a run decides (state/address-claim.ts): with a shared store, those no other host holds;
   * in the folder, all of them, deciding alone on this machine (so that two overlapping runs, a slow cron job
   * and the next, cannot both buy one shortfall).
   */
  claim: ClaimAddresses;
  /** This host's clock (tests shift it); the run reads the server's against it (ordering/server-clock.ts). */
  nowMs?: () => number;
  /** Ids of this machine's orders seen final: a service keeps them between cycles (see in-flight.ts). */
  knownFinal?: Set<string>;
  /** A placed order's id → the address's energy limit read before it: a service keeps them (landed.ts). */
  limitsBefore?: Map<string, LimitBefore>;
  /** What the fleet knows of accounts on chain (a shared state store), so that one host asks the node. */
  knownAccounts?: KnownAccounts | undefined;
  /** Orders the fleet knows ended (a shared state store): not followed by id again by any host. */
  finalOrders?: FinalOrders | undefined;
  /** A service's: the order list one host of the fleet reads an interval (a shared state store; cycle-list.ts). */
  sharedList?: SharedOrderList | undefined;
  /** A service's reading of the order list for the cycle under way (made each cycle from `sharedList`). */
  cycleList?: CycleList | undefined;
  /** A service's cycle: the server's clock read once for all of its claim slices (made each cycle). */
  cycleClock?: CycleClock | undefined;
  /**
   * A service's word on an address it must not buy for in this cycle (its deliveries failed: it backs off),
   * as the error its item fails with (`delivery_failed`); undefined to buy as usual.
   */
  holdBack?: ((address: string) => CliError | undefined) | undefined;
  /** --max-spend's ledger and rule, kept by a service between cycles; undefined without the option. */
  spendCeiling?: SpendCeilingRule | undefined;
  /** Pause between readings while waiting (tests shorten it). */
  pollMs?: number;
}

/** An address to buy for, with its price. */
export interface Purchase {
  item: EnsureItem;
  quote: QuoteResponse;
  /** The need's anchor, window and the part of the list read, from which the order's id is derived. */
  need: Need;
}

/**
 * `--max-spend 50/24h [--budget name]`, parsed once by the option parser (commands/ensure-options.ts) and
 * carried in the run's options: at most `trx` over any `windowMs`, counted in the ledger `budget` names, else the
 * API key's own (spend-ceiling.ts's ceilingLedger). spend-ceiling.ts holds against it and refuses (exit 5).
 */
export interface Ceiling {
  /** Six-digit TRX, as money.ts writes it: never a JavaScript number. */
  trx: string;
  windowMs: number;
  /** As typed (`50/24h`), for messages. */
  text: string;
  /** --budget: the ledger's name, shared by whatever names it; undefined: the API key's own ledger. */
  budget?: string | undefined;
}

/**
 * One order request's hold in the --max-spend ledger (spend-ceiling.ts), from before its request leaves to
 * what its answer says.
 */
export interface SpendHold {
  /**
   * The request is about to leave under `id`: held there (a new id is held afresh, checked against the
   * ceiling). An error to fail its item with (reason spend_limit) when it does not fit: then it is not sent.
   */
  sending(id: string): Promise<CliError | undefined>;
  /** The server has this order for the id (placed now or before): it counts as the order, from now. */
  ordered(order: Order): Promise<void>;
  /** The id's order is an earlier need's, not this request's: nothing placed, the hold goes. */
  nothing(): Promise<void>;
  /** The request failed: its hold goes when the journal's record says it placed nothing, else it stays. */
  failed(record: JournalRecord | undefined): Promise<void>;
}

/** What a run holds under the ceiling: the purchases that fit, each with its hold. */
export interface SpendReservation {
  purchases: Purchase[];
  holdOf(purchase: Purchase): SpendHold | undefined;
  /** Gives back the holds of purchases never sent (consent refused, a stop): nothing of theirs left. */
  releaseUnsent(): Promise<void>;
}

/** An order of the service's that became final, as the --max-spend ledger files it. */
export interface FinalOutcome {
  order: Order;
  state: 'kept' | 'refunded';
}

/** --max-spend's rule as ensure and the service use it (spend-ceiling.ts). */
export interface SpendCeilingRule {
  readonly limit: Ceiling;
  /**
   * Holds the purchases that fit under the ceiling in the ledger, in the order given, in one step under the
   * ledger's lock; each other one fails its item (spend_limit), unsent.
   */
  reserve(
    purchases: readonly Purchase[],
    clock: ServerClock,
    client: Pick<EnsureClient, 'getOrder'>,
  ): Promise<SpendReservation>;
  /** A resend of `ensure`'s own pending request: its hold, or the error saying it does not fit (then not resent). */
  holdResend(record: JournalRecord, clock: ServerClock): Promise<SpendHold | CliError>;
  /**
   * Orders of the service's, final: a refunded one gives its price back. All of a cycle's at once, in one write
   * (one statement in PostgreSQL); none, nothing written.
   */
  settle(outcomes: readonly FinalOutcome[]): Promise<void>;
  /** What is left now, on the server's clock as the last run measured it. */
  leftNow(hostNowMs: number): Promise<string>;
}
