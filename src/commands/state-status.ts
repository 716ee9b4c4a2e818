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
import type { Context } from './context.js';

export function stateStatusCommand(ctx: Context): Command {
  return new Command('status')
    .description('what the state store holds: hosts and their leases, pending records, schema version')
    .action(async () => {
      const store = await ctx.state();
      const status = await store.status(await serverNowMs(ctx));
      if (ctx.printer.jsonMode) return ctx.printer.json(status);
      await ctx.printer.keyValue(stateStatusRows(status));
      if (status.hosts.length > 0) await ctx.printer.table(stateHostsTable(status));
      if (status.ledgers.length > 0) await ctx.printer.table(stateLedgersTable(status));
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
