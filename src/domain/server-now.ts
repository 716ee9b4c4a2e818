/**
 * The process's one reading of "now" on the server's clock, for the layers that may not reach the API
 * client (the journal, the state store): the CLI's client registers its clock here when it is made, so
 * that a journal record is stamped on the clock the ledger and signing use (issue 44). Until then, and in
 * a library user's process that registers none, it is the host's clock.
 */
let source: (() => number) | undefined;

/** Makes `now` the process's server clock (the CLI's API client calls it once). */
export function useServerClock(now: () => number): void {
  source = now;
}

/** The server's time now, in ms, as this process knows it (the host's clock before any client exists). */
export function serverNowMs(): number {
  return source === undefined ? Date.now() : source();
}
