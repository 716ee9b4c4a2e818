/**
 * `energy state status [--json]`: the state store as an operator sees it (issue 39 item 5), as `pg-boss`'s
 * and graphile-worker's dashboards show their queues: the services that claimed addresses (live, silent or
 * ended), with their last claim and the leases they hold (until when), the one-shot runs by host, the records
 * whose outcome is unknown, the schema's version, and each --max-spend ledger with what it counts over its
 * longest window, as of the API server's clock (one `GET /v1/time`). For the folder: this machine's pending
 * records and whether `ensure.lock` is held. Read-only.
 */
import { Command } from 'commander';
import { stateHostsTable, stateLedgersTable, stateStatusRows } from '../output/state-status-views.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export type StateStatusCommandOptions = Pick<CommandServices, 'client' | 'state' | 'printer'>;

export function stateStatusCommand(
  ctx: Context,
  run: (options: StateStatusCommandOptions) => Promise<void> = stateStatusRun,
): Command {
  return new Command('status')
    .description('what the state store holds: hosts and their leases, pending records, schema version')
    .action(() => run(ctx.services()));
}

export async function stateStatusRun(opts: StateStatusCommandOptions): Promise<void> {
  const { printer } = opts;
  const store = await opts.state();
  const status = await store.status(await serverNowMs(opts));
  if (printer.jsonMode) return printer.json(status);
  await printer.keyValue(stateStatusRows(status));
  if (status.hosts.length > 0) await printer.table(stateHostsTable(status));
  if (status.ledgers.length > 0) await printer.table(stateLedgersTable(status));
}

/**
 * The API server's clock, as every ledger entry is stamped: one `GET /v1/time` (anonymous). Undefined where no
 * API is configured or it does not answer: the store's own clock then (the database's, or this host's).
 */
async function serverNowMs(opts: StateStatusCommandOptions): Promise<number | undefined> {
  try {
    const { readServerClock } = await import('../ordering/server-clock.js');
    return (await readServerClock(await opts.client(), Date.now)).nowMs();
  } catch {
    return undefined;
  }
}
