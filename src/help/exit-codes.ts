/** The exit codes in short words: `energy help exit-codes` and the man page. docs/exit-codes.md has the details. */
export const EXIT_CODES: readonly (readonly [number, string])[] = [
  [0, 'success'],
  [1, 'unexpected internal error (a bug)'],
  [
    2,
    'usage or invalid input, caught locally or the API said 400, 413, 415 or 422; no consent to spend; a simulated transfer that reverts; a config or state folder others can read',
  ],
  [3, 'authentication: no credentials, or the API (or the TRON node) said 401'],
  [4, 'not found: the API said 404, or no recent order has that short id'],
  [5, 'conflict or refused price: the API said 409, or --max-total was exceeded'],
  [6, "rate limited: 429 still after the retries, or a longer Retry-After; the TRON node's 429 or 403"],
  [7, 'service or network: 5xx, connection failure, timeout, a response that breaks the spec'],
  [8, 'the order ended in failure or without delivery (--wait, order wait)'],
  [
    9,
    'some of several items failed, the others stand (order batch, ensure, order recover); ensure with every address failed for one code exits with that code',
  ],
  [10, '--wait-timeout ran out before the order was final: the order stands'],
  [11, 'the shared state store (ENERGY_STATE_URL) cannot be reached or refuses: nothing was ordered'],
  [129, 'interrupted by SIGHUP; what was in flight is named on stderr and journaled'],
  [130, 'interrupted by SIGINT (Ctrl-C), as above'],
  [143, 'interrupted by SIGTERM, as above'],
];
