/**
 * `energy state import [--from <folder>]`: moves a local journal (every record, pending and settled, of every
 * API and key) and its --max-spend ledgers (each event once) into the shared state store named by
 * ENERGY_STATE_URL. Idempotent: a record already there is left alone, except that a local outcome settles a row
 * still pending there. The local files stay. A `--from` folder that does not exist, or holds no journal, is
 * exit 2 (nothing imported).
 */
import { Command } from 'commander';
import { ConflictError } from '../domain/cli-errors.js';
import { UsageError } from '../domain/errors.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

export interface StateImportCommandOptions extends Pick<CommandServices, 'state' | 'terminal' | 'printer'> {
  /** --from: the state folder to read; undefined for this machine's (ENERGY_STATE_DIR or the default). */
  from: string | undefined;
}

export function stateImportCommand(
  ctx: Context,
  run: (options: StateImportCommandOptions) => Promise<void> = stateImportRun,
): Command {
  return new Command('import')
    .description("copy this machine's journal (pending and settled records) into the shared state store")
    .option('--from <folder>', 'the state folder to read (default: ENERGY_STATE_DIR or ~/.local/state/energy)')
    .action((parsed: { from?: string }) => run({ from: parsed.from, ...ctx.services() }));
}

export async function stateImportRun(opts: StateImportCommandOptions): Promise<void> {
  const { printer } = opts;
  const [{ localRecords }, { stateDir, journalDir }, { folderLedgers }, { existsSync }] = await Promise.all([
    import('../state/folder/local-records.js'),
    import('../journal/state-dir.js'),
    import('../state/folder/folder-ledgers.js'),
    import('node:fs'),
  ]);
  const folder = opts.from ?? stateDir(opts.terminal.env);
  // A mistyped --from is no "0 records": said before the database is reached.
  if (opts.from !== undefined && !existsSync(journalDir(folder)))
    throw new UsageError(
      `${existsSync(folder) ? `${folder} holds no journal (no ${journalDir(folder)})` : `there is no folder ${folder}`}: nothing was imported`,
      {
        hint: '--from names a state folder (what ENERGY_STATE_DIR named on the old host): the one holding journal/',
      },
    );
  const store = await opts.state();
  const { records, unreadable } = localRecords(folder);
  // Every ledger is read before anything is written: one that cannot be read stops the import.
  const ledgers = await folderLedgers(journalDir(folder));
  const counts = await store.importRecords(records);
  const spend = { ledgers: ledgers.length, events: await store.importSpendLedgers(ledgers) };
  for (const file of unreadable)
    printer.note(`energy: not imported: ${file.path}: ${file.reason}; its order may or may not exist`);
  if (printer.jsonMode)
    await printer.json({ from: folder, to: store.where, ...counts, unreadable: unreadable.length, spend });
  else
    printer.note(
      `energy: ${records.length} record(s) from ${folder}: ${counts.added} added, ${counts.settled} settled there, ${counts.present} already there; ${spend.ledgers} --max-spend ledger(s), ${spend.events} event(s) added`,
    );
  if (unreadable.length > 0)
    throw new ConflictError(`${unreadable.length} journal record(s) unreadable, not imported (the paths above)`, {
      hint: '`energy order list` shows whether their orders exist',
    });
}
