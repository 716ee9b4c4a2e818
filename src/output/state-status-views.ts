/**
 * `energy state status` as text: a key/value block of what the store holds, then the services (hosts) with
 * their leases and the --max-spend ledgers, each a table where there are any. `--json` prints the status as
 * the store gives it.
 */
import { formatDuration } from '../domain/duration.js';
import type { StoreStatus } from '../state/state-store.js';
import { formatInteger, formatIsoTime } from './format.js';
import type { TableSpec } from './printer.js';
import type { Row } from './views.js';

const HOST_COLUMNS = [
  { head: 'HOST', width: 24 },
  { head: 'PID', width: 7 },
  { head: 'STATE', width: 6 },
  { head: 'LAST_CLAIM', width: 25 },
  { head: 'CLAIMED', width: 7 },
  { head: 'SKIPPED', width: 7 },
  { head: 'LEASES', width: 6 },
  { head: 'EXPIRE', width: 25 },
  { head: 'PROGRAM', width: 20, cut: 1 },
] as const;

const LEDGER_COLUMNS = [
  { head: 'LEDGER', width: 32, cut: 1 },
  { head: 'WINDOW', width: 8 },
  { head: 'COUNTED', width: 7 },
  { head: 'SPENT_TRX', width: 18 },
] as const;

/** The hosts that claimed addresses: one row each, with the leases they hold. */
export function stateHostsTable(status: StoreStatus): TableSpec {
  return {
    columns: HOST_COLUMNS,
    rows: status.hosts.map((host) => [
      host.host,
      String(host.pid),
      host.state,
      formatIsoTime(host.last_claim_at),
      formatInteger(host.last_claimed),
      formatInteger(host.last_skipped),
      formatInteger(host.leases_held),
      host.leases_expire_at === null ? '-' : formatIsoTime(host.leases_expire_at),
      host.program ?? '-',
    ]),
  };
}

/** The --max-spend ledgers: what each counts over its longest window. */
export function stateLedgersTable(status: StoreStatus): TableSpec {
  return {
    columns: LEDGER_COLUMNS,
    rows: status.ledgers.map((ledger) => [
      ledger.ledger,
      ledger.longest_window_ms === 0 ? '-' : formatDuration(ledger.longest_window_ms),
      formatInteger(ledger.entries),
      ledger.spent_trx,
    ]),
  };
}

const CLOCKS = {
  server: 'the API server',
  database: 'the database (no API server answered)',
  host: 'this host (no API server answered)',
};

export function stateStatusRows(status: StoreStatus): Row[] {
  const { leases, pending, runs } = status;
  const count = (state: string) => status.hosts.filter((host) => host.state === state).length;
  const when = (iso: string | null) => (iso === null ? '' : formatIsoTime(iso));
  return [
    ['Store', `${status.store} ${status.where}`],
    [
      'Schema',
      status.schema_version === null
        ? '- (a folder has none)'
        : `version ${status.schema_version} (this energy writes ${status.program_schema_version})`,
    ],
    ['Services', `${formatInteger(count('live'))} live, ${count('silent')} silent, ${count('ended')} ended`],
    [
      'Runs',
      runs.total === 0
        ? '0'
        : `${formatInteger(runs.total)} by ${runs.by_host.length} host(s), last ${when(runs.last_at)}${runs.not_ended === 0 ? '' : `, ${formatInteger(runs.not_ended)} not ended`}`,
    ],
    [
      'Leases held',
      leases.held === 0
        ? '0'
        : `${formatInteger(leases.held)}${leases.soonest_expiry === null ? '' : `, expiring ${when(leases.soonest_expiry)} to ${when(leases.latest_expiry)}`}`,
    ],
    [
      'Pending records',
      `${formatInteger(pending.records)}${pending.oldest === null ? '' : `, oldest ${when(pending.oldest)}`}${pending.unreadable === 0 ? '' : `, ${pending.unreadable} unreadable`}`,
    ],
    ['Merged records', formatInteger(status.merged_records)],
    ['Clock', `${when(status.clock.now)}, ${CLOCKS[status.clock.source]}`],
  ];
}
