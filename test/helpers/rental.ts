/**
 * The rental most e2e tests buy, spelled out once: ADDRESS --energy 65000 --hours 1 (3.700000 TRX on a
 * fresh sandbox address, activation included). Tests then differ only in the flags they add, which is
 * what each one is about.
 */

/** `ADDRESS… --energy 65000 --hours 1`, then `more` in the order given (for `order create`, `quote`, `ensure`). */
export function rentalArgs(addresses: string | readonly string[], ...more: string[]): string[] {
  return [...(typeof addresses === 'string' ? [addresses] : addresses), '--energy', '65000', '--hours', '1', ...more];
}

/** `order create` for that rental, then `more` in the order given (e.g. '--yes', '--wait'). */
export function orderCreateArgs(address: string, ...more: string[]): string[] {
  return ['order', 'create', ...rentalArgs(address, ...more)];
}
