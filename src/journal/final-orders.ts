/**
 * Orders of one account known to have ended (nothing more on its way from them: final, or past their term),
 * shared by the hosts of a state store, so that an order the list no longer reaches is followed by id once for
 * the fleet, not once per process. An order that ended stays ended: what is known is never wrong, only missing.
 */
export interface FinalOrders {
  known(orderIds: readonly string[]): Promise<Set<string>>;
  add(orderIds: readonly string[]): Promise<void>;
}
