/**
 * `energy state status [--json]`: the state store as an operator sees it (issue 39 item 5), as `pg-boss`'s
 * and graphile-worker's dashboards show their queues: the hosts that claimed addresses, with their last claim
 * and the leases they hold (until when), the records whose outcome is unknown, the schema's version, and
 * each --max-spend ledger with what it counts over its longest window. For the folder: this machine's pending records and whether `ensure.lock` is held. Read-only.
 */
import { Command } from 'commander';
import type { StoreStatus } from '../state/state-store.js';
import { formatDuration } from '../domain/duration.js';
import { formatInteger, formatIsoTime } from '../output/format.js';
import type { Context } from './context.js';

const HOST_COLUMNS = [
  { head: 'HOST', width: 24 },
  { head: 'PID', width: 7 },
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
      const status = await (await ctx.state()).status();
      if (ctx.printer.jsonMode) return ctx.printer.json(status);
      await ctx.printer.keyValue(statusRows(status));
      if (status.hosts.length > 0)
        await ctx.printer.table({
          columns: HOST_COLUMNS,
          rows: status.hosts.map((host) => [
            host.host,
            String(host.pid),
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

function statusRows(status: StoreStatus): [string, string][] {
  const { leases, pending } = status;
  const when = (iso: string | null) => (iso === null ? '' : formatIsoTime(iso));
  return [
    ['Store', `${status.store} ${status.where}`],
    [
      'Schema',
      status.schema_version === null
        ? '- (a folder has none)'
        : `version ${status.schema_version} (this energy writes ${status.program_schema_version})`,
    ],
    ['Hosts', formatInteger(status.hosts.length)],
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
  ];
}
