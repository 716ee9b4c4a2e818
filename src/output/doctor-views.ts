/** `energy doctor`'s checks as a table: what each found, and under a check that did not pass, what to do. */
import type { TableSpec } from './printer.js';

export interface ShownCheck {
  name: string;
  status: string;
  detail: string;
  hint: string | null;
}

export function doctorTable(checks: readonly ShownCheck[]): TableSpec {
  return {
    // Never cut: a check's detail and hint are what the user acts on; a long one wraps on words.
    columns: [
      { head: 'CHECK', width: 11 },
      { head: 'STATUS', width: 6 },
      { head: 'DETAIL', width: 0, wrap: 1 },
    ],
    rows: checks.flatMap(({ name, status, detail, hint }) => [
      [name, status, detail],
      ...(hint === null ? [] : [['', '', `→ ${hint}`]]),
    ]),
  };
}
