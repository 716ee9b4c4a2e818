/** The help topics written as prose, 80 columns wide. docs/output.md and docs/service.md have the details. */

export const FORMATTING = `Output of energy: readable on a terminal, whole in a pipe, exact as JSON or CSV.

Tables
  On a terminal a table fits the screen (COLUMNS, else the terminal's width):
  dates take a short form, ids their first 8 characters (order get and order
  wait take them), addresses their first and last six, long text is cut; a
  result or detail cut short is written whole on stderr. In a pipe or a file
  nothing is shortened: every header and cell is one word (an empty cell is -,
  a space inside a value _), so awk, grep, cut and column -t see whole values.
  Amounts are shown as the API sends them (six decimals, never a float); times
  as local ISO date-times with their offset, to the second.

JSON (--json, or --output json)
  stdout holds exactly one JSON document: the API's object with its field
  names, and every field the spec does not name passed on as sent. Every line
  on stderr is one JSON object: notes {"note":{"message"}}, --verbose lines
  {"verbose":{"message"}}, and the error, if any, last:
  {"error":{"exit_code","message","hint","problem"}}. Times are ISO 8601 UTC.
  order batch --json and ensure --every --json write one object a line.

CSV (order list --output csv, spend --output csv)
  RFC 4180: a header line, CRLF line ends, a field quoted when it holds , ; "
  or a line break. A field starting with = + - @, a tab or a CR gets a leading
  ' so that spreadsheets do not run it as a formula. Times ISO 8601 UTC.

Examples
  energy balance --json | jq -r .available_trx
  energy order list --all --json | jq -r '.items[] | select(.failure) | .id'
  energy order list --all --output csv > orders.csv
  energy order create "$ADDR" --energy 65000 --hours 1 --yes --json \\
    2> err.ndjson || jq -r 'select(.error) | .error.message' err.ndjson

Server text is escaped before it reaches a terminal (control characters as
\\x1b, \\u{202e}); --json writes them as \\u escapes. Colour only on a terminal
(NO_COLOR turns it off). More: docs/output.md.
`;

export const SERVICE = `ensure --every <duration> keeps addresses supplied as a long-running service:
one ensure run per cycle, cycles starting <duration> apart (±10 %), never
overlapping.

  energy ensure "$ADDR" --energy 65000 --hours 1 --max-total 20 --yes \\
    --every 1m --json --metrics 9464 --min-balance 50 --on-event ./alert

Each cycle
  reads each address on the TRON node, counts orders in flight, buys the
  shortfall. With --json, one line per cycle: {"cycle","at","items":[…]}, and
  "error" for a cycle that failed. A failure of the moment (the network, an
  answer of the API or the node, --max-total this cycle, another run holding
  the lock) is logged and the next cycle tries again. Exit 2 (input or config),
  3 (credentials) and 1 (a bug) end the service: another cycle cannot cure them.

Stopping
  SIGTERM or SIGINT ends it after the cycle in flight (its orders finish and
  are journaled), exit 0; a second signal exits at once (143 or 130).

Watching it (each only with --every)
  --metrics [host:]port   Prometheus text at /metrics and a health check at
                          /healthz (loopback unless a host is given; 0 takes
                          a free port). /healthz is 503 once the last 3 cycles
                          failed, or no cycle ended for 3 intervals and a
                          minute.
  --min-balance <trx>     a low_balance event, once, when the balance falls
                          below the floor.
  --on-event <command>    runs the command once per event (order_placed,
                          order_failed, cycle_failed, low_balance) with the
                          event as one JSON line on its stdin; two at a time,
                          10 s each; the API credentials are taken out of its
                          environment.

Supervisors
  systemd: Restart=on-failure with RestartPreventExitStatus=2 3, and the state
  folder (ENERGY_STATE_DIR) on a StateDirectory. Docker: the checkout's
  Dockerfile, with its state folder /state on a volume. Several hosts may run
  the same command: orders get ids derived from the need, so the server places
  one order per need. More: docs/service.md.
`;
