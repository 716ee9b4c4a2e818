/** Every bad line of a batch file, reported in one run rather than the first alone. */
import { UsageError } from '../domain/errors.js';
import type { BadLineError } from '../domain/cli-errors.js';

/** The bad lines of a file: the first is held back (alone, it is the error itself), the rest said as found. */
export class BadLines {
  #first: BadLineError | undefined;
  #count = 0;
  readonly #numbers: number[] = [];

  constructor(private readonly report: (error: BadLineError) => void) {}

  add(error: BadLineError): void {
    this.#count += 1;
    if (this.#numbers.length < 20) this.#numbers.push(error.line);
    if (this.#count === 1) this.#first = error;
    else {
      if (this.#count === 2) this.report(this.#first!);
      this.report(error);
    }
  }

  /** Throws when any line was bad. */
  end(label: string): void {
    if (this.#count === 0) return;
    if (this.#count === 1) throw this.#first!;
    const more = this.#count > this.#numbers.length ? ', …' : '';
    throw new UsageError(
      `${label}: ${this.#count} lines are not valid orders (lines ${this.#numbers.join(', ')}${more}, each said above): nothing was bought`,
      { hint: 'fix those lines and run the batch again: nothing of it was bought' },
    );
  }
}
