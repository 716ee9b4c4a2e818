/**
 * Accounts known to exist on chain and not to be contracts, per TRON node (what `getaccount` said: an account
 * never becomes a contract, nor the reverse), shared by the hosts of a state store.
 */
export interface KnownAccounts {
  known(node: string, addresses: readonly string[]): Promise<Set<string>>;
  add(node: string, addresses: readonly string[]): Promise<void>;
}
