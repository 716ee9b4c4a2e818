/**
 * `energy order batch <file or ->`: one order per line of a CSV or NDJSON file. Every line is checked,
 * then quoted, then one consent covers the sum; then the orders go out at bounded concurrency, each
 * journaled, so a re-run of the same file (after a kill, or to retry failed lines) buys no line twice.
 */
import { Argument, Command, Option } from 'commander';
import type { BatchPlan } from '../batch/plan.js';
import type { LineResult } from '../batch/execute.js';
import type { BatchSource } from '../batch/source.js';
import { ContextualError, InterruptedError, SomeFailedError } from '../domain/errors.js';
import { concurrency, trxAmount } from './arguments.js';
import type { Context } from './context.js';

interface BatchOptions {
  format?: 'csv' | 'ndjson';
  concurrency: number;
  yes?: boolean;
  maxTotal?: string;
  dryRun?: boolean;
}

const COLUMNS = ['LINE', 'CLIENT_REQUEST_ID', 'STATUS', 'ORDER', 'DETAIL'] as const;
const WIDTHS = [6, 20, 8, 36, 20] as const;

export function orderBatchCommand(ctx: Context): Command {
  return new Command('batch')
    .summary('many orders from a CSV or NDJSON file')
    .description(
      'place one order per line of a CSV file (header address,energy,hours[,client_request_id]) or NDJSON file; re-running the same file never buys a line twice',
    )
    .addArgument(new Argument('<file>', 'the file, or - for standard input'))
    .addOption(
      new Option('--format <format>', 'csv or ndjson (default: from the name, or the first line)').choices([
        'csv',
        'ndjson',
      ]),
    )
    .addOption(new Option('--concurrency <n>', 'orders in flight at once, 1 to 32').argParser(concurrency).default(4))
    .option('-y, --yes', 'consent to the sum of the quotes without a prompt')
    .addOption(
      new Option('--max-total <trx>', 'refuse (exit 5, nothing bought) when the sum is above this').argParser(
        trxAmount,
      ),
    )
    .option('--dry-run', 'check and quote every line, print the plan and its total; buy nothing')
    .action(async (file: string, options: BatchOptions) => {
      // Requests in flight when a signal comes are let finish, so that their outcome is known and journaled.
      const client = await ctx.client({ finishInFlight: true });
      const journal = await ctx.journal();
      const [
        { openInput, checkBatch },
        { planBatch },
        { executeBatch },
        { requireConsent, refuseAboveMax },
        { addAmounts },
        os,
      ] = await Promise.all([
        import('../batch/source.js'),
        import('../batch/plan.js'),
        import('../batch/execute.js'),
        import('../ordering/consent.js'),
        import('../domain/money.js'),
        import('node:os'),
      ]);
      const catalog = await client.options();
      const rules = {
        energyPerPortion: catalog.energy_per_portion,
        maxEnergy: catalog.max_energy,
        hours: catalog.duration_hours,
      };
      const input = await openInput(file, ctx.terminal.stdin, os.tmpdir());
      try {
        const source = await checkBatch(input.path, input.label, rules, options.format);
        const plan = await planBatch(source, client, journal, options.concurrency);
        if (options.dryRun === true) return await printPlan(ctx, source, plan);
        await refuseAboveMax(plan.total, options.maxTotal, 'the batch total');
        const toSend = plan.counts.new + plan.counts.resend;
        await requireConsent({
          terminal: ctx.terminal,
          given: options.yes === true || toSend === 0,
          details: [
            `${source.label}: ${source.orderCount} lines: ${plan.counts.new} to order, ${plan.counts.resend} to resend (outcome unknown), ${plan.counts.skip} already ordered`,
          ],
          question: `Place ${toSend} orders for ${plan.total} TRX in all?`,
          refusal: `not placing ${toSend} orders for ${plan.total} TRX without consent`,
          hint: 'add --yes to accept the sum of the quotes (and --max-total to cap it)',
          note: (line) => ctx.printer.note(line),
        });
        const sender = { client, journal, recoverCommand: (id: string) => ctx.invocation('order', 'recover', id) };
        const output = resultWriter(ctx);
        const started = Date.now();
        let done = 0;
        let spent = '0.000000';
        const summary = await executeBatch({
          source,
          plan,
          client,
          journal,
          sender,
          concurrency: options.concurrency,
          cap: options.maxTotal ?? plan.total,
          stopped: () => ctx.terminal.interrupt?.aborted === true,
          onResult: async (result) => {
            done += 1;
            if (result.status === 'created' && result.order !== null) spent = addAmounts(spent, result.order.total_trx);
            await output.write(result);
            const rate = done / Math.max((Date.now() - started) / 1000, 0.001);
            ctx.printer.status(`batch: ${done}/${source.orderCount} lines, ${rate.toFixed(1)}/s, ${spent} TRX spent`);
          },
        });
        await output.end();
        const { counts } = summary;
        ctx.printer.note(
          `energy: batch ${source.label}: ${counts.created} created, ${counts.existing} existing, ${counts.skipped} skipped, ${counts.failed} failed` +
            `${summary.notReached > 0 ? `, ${summary.notReached} not reached` : ''}; ${summary.spent} TRX in new orders`,
        );
        const rerun = `re-run the same file to finish (no line is bought twice): ${ctx.invocation('order', 'batch', file, '--yes')}${file === '-' ? ' < the same input' : ''}`;
        const interrupted: unknown = ctx.terminal.interrupt?.reason;
        if (ctx.terminal.interrupt?.aborted === true && interrupted instanceof InterruptedError) {
          throw new ContextualError(
            `${interrupted.message}: the orders in flight finished and are journaled; ${summary.notReached} lines not reached`,
            interrupted,
            { hint: rerun },
          );
        }
        if (counts.failed > 0) {
          throw new SomeFailedError(`${counts.failed} of ${source.orderCount} lines failed (the others stand)`, {
            hint: rerun,
          });
        }
      } finally {
        ctx.printer.clearStatus();
        input.cleanup();
      }
    });
}

/** Results as they come: NDJSON lines with --json, else a table streamed in blocks. */
function resultWriter(ctx: Context): { write: (result: LineResult) => Promise<void>; end: () => Promise<void> } {
  if (ctx.printer.jsonMode) {
    // Lines finished in the same turn of the event loop go out in one write: one syscall, not one a line.
    let pending = '';
    let flushing: Promise<void> | undefined;
    const flush = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      const text = pending;
      pending = '';
      flushing = undefined;
      await ctx.printer.write(text);
    };
    return {
      write: (result) => {
        pending += `${JSON.stringify(result)}\n`;
        flushing ??= flush();
        return flushing;
      },
      end: async () => {
        await flushing;
        if (pending !== '') await ctx.printer.write(pending);
      },
    };
  }
  let rows: string[][] = [];
  let headShown = false;
  const flush = async () => {
    if (rows.length === 0) return;
    await ctx.printer.table({ head: COLUMNS, widths: WIDTHS, rows, showHead: !headShown });
    headShown = true;
    rows = [];
  };
  return {
    write: async (result) => {
      rows.push([String(result.line), result.client_request_id, result.status, result.order_id ?? '', detail(result)]);
      if (rows.length >= 50) await flush();
    },
    end: flush,
  };
}

function detail(result: LineResult): string {
  if (result.error !== null) return result.error.message;
  if (result.order !== null) return `${result.order.total_trx} TRX, ${result.order.status}`;
  return result.status === 'skipped' ? 'ordered by an earlier run' : '';
}

async function printPlan(ctx: Context, source: BatchSource, plan: BatchPlan): Promise<void> {
  const { batchLines, lineRequestId } = await import('../batch/source.js');
  const rows: string[][] = [];
  for await (const line of batchLines(source)) {
    const linePlan = plan.lines.get(line.line)!;
    const item = {
      line: line.line,
      client_request_id: lineRequestId(source, line),
      plan: linePlan.kind === 'new' ? 'order' : linePlan.kind,
      address: line.address,
      energy: line.energy,
      duration_hours: line.hours,
      total_trx: linePlan.kind === 'skip' ? null : linePlan.total,
    };
    if (ctx.printer.jsonMode) await ctx.printer.write(`${JSON.stringify(item)}\n`);
    else rows.push([String(item.line), item.client_request_id, item.plan, item.address, item.total_trx ?? '']);
  }
  if (!ctx.printer.jsonMode)
    await ctx.printer.table({
      head: ['LINE', 'CLIENT_REQUEST_ID', 'PLAN', 'ADDRESS', 'TOTAL TRX'],
      widths: [6, 20, 6, 34, 14],
      rows,
    });
  ctx.printer.note(
    `energy: dry run: ${plan.counts.new} to order, ${plan.counts.resend} to resend, ${plan.counts.skip} already ordered; ${plan.total} TRX in all; nothing was bought`,
  );
}
