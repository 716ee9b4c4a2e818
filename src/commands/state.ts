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
import type { Context } from './context.js';
import { stateStatusCommand } from './state-status.js';

export function stateCommand(ctx: Context): Command {
  const state = new Command('state').description(
    'the state store (ENERGY_STATE_URL, or the state folder): its status; import a local journal',
  );
  state.addCommand(stateStatusCommand(ctx));
  state
    .command('import')
    .description("copy this machine's journal (pending and settled records) into the shared state store")
    .option('--from <folder>', 'the state folder to read (default: ENERGY_STATE_DIR or ~/.local/state/energy)')
    .action(async (parsed: { from?: string }) => {
      const [{ localRecords }, { stateDir, journalDir }, { folderLedgers }, { existsSync }] = await Promise.all([
        import('../journal/local-records.js'),
        import('../journal/state-dir.js'),
        import('../journal/folder-ledgers.js'),
        import('node:fs'),
      ]);
      const folder = parsed.from ?? stateDir(ctx.terminal.env);
      // A mistyped --from is no "0 records": said before the database is reached.
      if (parsed.from !== undefined && !existsSync(journalDir(folder)))
        throw new UsageError(
          `${existsSync(folder) ? `${folder} holds no journal (no ${journalDir(folder)})` : `there is no folder ${folder}`}: nothing was imported`,
          {
            hint: '--from names a state folder (what ENERGY_STATE_DIR named on the old host): the one holding journal/',
          },
        );
      const store = await ctx.state();
      const { records, unreadable } = localRecords(folder);
      // Every ledger is read before anything is written: one that cannot be read stops the import.
      const ledgers = await folderLedgers(journalDir(folder));
      const counts = await store.importRecords(records);
      const spend = { ledgers: ledgers.length, events: await store.importSpendLedgers(ledgers) };
      for (const file of unreadable)
        ctx.printer.note(`energy: not imported: ${file.path}: ${file.reason}; its order may or may not exist`);
      if (ctx.printer.jsonMode)
        await ctx.printer.json({ from: folder, to: store.where, ...counts, unreadable: unreadable.length, spend });
      else
        ctx.printer.note(
          `energy: ${records.length} record(s) from ${folder}: ${counts.added} added, ${counts.settled} settled there, ${counts.present} already there; ${spend.ledgers} --max-spend ledger(s), ${spend.events} event(s) added`,
        );
      if (unreadable.length > 0)
        throw new ConflictError(`${unreadable.length} journal record(s) unreadable, not imported (the paths above)`, {
          hint: '`energy order list` shows whether their orders exist',
        });
    });
  return state;
}
