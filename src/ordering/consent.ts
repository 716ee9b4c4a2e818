/**
 * Consent to spend: `--yes`, `--expected-total` (consent to that price), or a question on a terminal.
 * Without one of them nothing is sent, whatever the caller (exit 2). How the question is asked is the
 * caller's (output/prompt.ts `confirmOn`): the flows never touch a terminal.
 */
import { UsageError } from '../domain/errors.js';
import { ConflictError } from '../domain/cli-errors.js';

/** Asks a person a yes/no question and says whether the answer was yes. */
export type Confirm = (question: string) => Promise<boolean>;

export interface ConsentInput {
  /** How to ask; undefined where nobody can answer (a pipe, a script, cron): only `given` is consent then. */
  confirm: Confirm | undefined;
  /** --yes, or another option that already is consent. */
  given: boolean;
  /** Shown before the question, one line each (stderr). */
  details: readonly string[];
  question: string;
  /** Said when consent is missing in a script. */
  refusal: string;
  hint: string;
  note: (line: string) => void;
}

export async function requireConsent(input: ConsentInput): Promise<void> {
  if (input.given) return;
  if (input.confirm === undefined) throw new UsageError(input.refusal, { hint: input.hint });
  for (const line of input.details) input.note(line);
  if (!(await input.confirm(input.question))) throw new UsageError('order cancelled: nothing was placed');
}

/** Exit 5 when `total` is above `--max-total`. */
export async function refuseAboveMax(total: string, maxTotal: string | undefined, what = 'the total'): Promise<void> {
  if (maxTotal === undefined) return;
  const { compareAmounts } = await import('../domain/money.js');
  if (compareAmounts(total, maxTotal) > 0) {
    throw new ConflictError(`${what} ${total} TRX is above --max-total ${maxTotal}: no order was placed`);
  }
}
