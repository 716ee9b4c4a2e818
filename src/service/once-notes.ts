/**
 * A service's notes about one address (its bandwidth short of its transfers, requests with no known
 * outcome), by the rule of its alarms: written once when it starts, again only when it changes or comes back
 * after a cycle without it. Without this, 30 wallets at `--every 1m` wrote 43,200 lines a day of one fact.
 */
export class OnceNotes {
  /** What each key said last, and whether it was said in the cycle now running. */
  readonly #said = new Map<string, { line: string; seen: boolean }>();

  constructor(private readonly write: (line: string) => void) {}

  note(key: string, line: string): void {
    const last = this.#said.get(key);
    if (last === undefined || last.line !== line) this.write(line);
    this.#said.set(key, { line, seen: true });
  }

  /** After a cycle: a note not said in it has ended, and is written again when it comes back. */
  endCycle(): void {
    for (const [key, entry] of this.#said) {
      if (entry.seen) entry.seen = false;
      else this.#said.delete(key);
    }
  }
}
