/**
 * `energy order batch <file or ->`: parses the options into a `BatchRequest` and runs the flow
 * (batch/run-batch.ts) with printing wired in (output/batch-views.ts), as `order create` does.
 */
import { Argument, Command, Option } from 'commander';
import type { BatchRequest } from '../batch/run-batch.js';
import type { TronNode } from '../tron/tron-node.js';
import { concurrency, trxAmount } from './arguments.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface BatchCommandOptions extends Pick<
  CommandServices,
  'client' | 'journal' | 'terminal' | 'printer' | 'invocation'
> {
  request: BatchRequest;
  /** The TRON node when one is configured (not the built-in default), for the receivers' contract check. */
  receiverNode: () => Promise<TronNode | undefined>;
}

interface Parsed {
  format?: 'csv' | 'ndjson';
  concurrency: number;
  yes?: boolean;
  maxTotal?: string;
  dryRun?: boolean;
  placeWhatFits?: boolean;
}

export function orderBatchCommand(
  ctx: Context,
  run: (options: BatchCommandOptions) => Promise<void> = orderBatchRun,
): Command {
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
    .option('--place-what-fits', 'when the balance cannot pay the sum, place the lines it covers (the rest fail)')
    .action((file: string, parsed: Parsed) =>
      run({
        request: {
          file,
          format: parsed.format,
          concurrency: parsed.concurrency,
          yes: parsed.yes === true,
          maxTotal: parsed.maxTotal,
          dryRun: parsed.dryRun === true,
          placeWhatFits: parsed.placeWhatFits === true,
        },
        receiverNode: () => ctx.configuredTronNode(),
        ...ctx.services(),
        // Requests in flight when a signal comes are let finish, so that their outcome is known and journaled.
        client: () => ctx.client({ finishInFlight: true }),
      }),
    );
}

export async function orderBatchRun(opts: BatchCommandOptions): Promise<void> {
  const { request } = opts;
  const client = await opts.client();
  const journal = await opts.journal();
  const [{ runBatch }, { DERIVED_ID_WIDTH }, { batchPlanWriter, batchResultWriter }, { confirmOn }, os] =
    await Promise.all([
      import('../batch/run-batch.js'),
      import('../batch/line-identity.js'),
      import('../output/batch-views.js'),
      import('../output/prompt.js'),
      import('node:os'),
    ]);
  const { printer, terminal } = opts;
  const results = batchResultWriter(printer, DERIVED_ID_WIDTH);
  const planned = batchPlanWriter(printer, DERIVED_ID_WIDTH);
  const note = (line: string) => printer.note(line);
  const deps = {
    client,
    journal,
    confirm: confirmOn(terminal),
    stdin: terminal.stdin,
    spoolDir: os.tmpdir(),
    interrupt: terminal.interrupt,
    note,
    // As `order create`: the node is asked only when one is configured (not the built-in default).
    receiverNode: opts.receiverNode,
    flush: async () => {
      await Promise.all([results.end(), planned.end()]);
    },
    progress: (line: string) => printer.status(line),
    onResult: results.write,
    onPlannedLine: planned.write,
    recoverCommand: (id: string) => opts.invocation('order', 'recover', id),
    // The re-run decides as this run did: the same format, cap and --place-what-fits.
    rerunCommand: opts.invocation(
      'order',
      'batch',
      request.file,
      ...(request.format === undefined ? [] : ['--format', request.format]),
      ...(request.maxTotal === undefined ? [] : ['--max-total', request.maxTotal]),
      ...(request.placeWhatFits ? ['--place-what-fits'] : []),
      '--yes',
    ),
  };
  try {
    await runBatch(deps, request);
  } finally {
    await Promise.all([results.end(), planned.end()]);
    printer.clearStatus();
  }
}
