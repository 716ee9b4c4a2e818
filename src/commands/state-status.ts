/**
 * `energy state status [--json]`: the state store as an operator sees it (issue 39 item 5), as `pg-boss`'s
 * and graphile-worker's dashboards show their queues: the services that claimed addresses (live, silent or
 * ended), with their last claim and the leases they hold (until when), the one-shot runs by host, the records
 * whose outcome is unknown, the schema's version, and each --max-spend ledger with what it counts over its
 * longest window, as of the API server's clock (one `GET /v1/time`). For the folder: this machine's pending
 * records and whether `ensure.lock` is held. Read-only.
 */
import { Command } from 'commander';
import type { StoreStatus } from '../state/state-store.js';
import { formatDuration } from '../domain/duration.js';
import { formatInteger, formatIsoTime } from '../output/format.js';
import type { Context } from './context.js';

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

export function stateStatusCommand(ctx: Context): Command {
  return new Command('status')
    .description('what the state store holds: hosts and their leases, pending records, schema version')
    .action(async () => {
      const store = await ctx.state();
      const status = await store.status(await serverNowMs(ctx));
      if (ctx.printer.jsonMode) return ctx.printer.json(status);
      await ctx.printer.keyValue(statusRows(status));
      if (status.hosts.length > 0)
        await ctx.printer.table({
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
        });
      if (status.ledgers.length > 0)
        await ctx.printer.table({
          columns: LEDGER_COLUMNS,
          rows: status.ledgers.map((ledger) => [
            ledger.ledger,
            ledger.longest_window_ms === 0 ? '-' : formatDuration(ledger.longest_window_ms),
            formatInteger(ledger.entries),
            ledger.spent_trx,
          ]),
        });
    });
}

/**
 * The API server's clock, as every ledger entry is stamped: one `GET /v1/time` (anonymous). Undefined where no
 * API is configured or it does not answer: the store's own clock then (the database's, or this host's).
 */
async function serverNowMs(ctx: Context): Promise<number | undefined> {
  try {
    const { readServerClock } = await import('../ordering/server-clock.js');
    return (await readServerClock(await ctx.client(), Date.now)).nowMs();
  } catch {
    return undefined;
  }
}

const CLOCKS = {
  server: 'the API server',
  database: 'the database (no API server answered)',
  host: 'this host (no API server answered)',
};

function statusRows(status: StoreStatus): [string, string][] {
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
