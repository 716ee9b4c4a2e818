/**
 * `energy state import [--from <folder>]`: moves a local journal (every record, pending and settled, of every
 * API and key) into the shared state store named by ENERGY_STATE_URL. Idempotent: a record already there is
 * left alone, except that a local outcome settles a row still pending there. The local files stay.
 */
import { Command } from 'commander';
import { ConflictError } from '../domain/cli-errors.js';
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
      const store = await ctx.state();
      const [{ localRecords }, { stateDir }] = await Promise.all([
        import('../journal/local-records.js'),
        import('../journal/state-dir.js'),
      ]);
      const folder = parsed.from ?? stateDir(ctx.terminal.env);
      const { records, unreadable } = localRecords(folder);
      const counts = await store.importRecords(records);
      for (const file of unreadable)
        ctx.printer.note(`energy: not imported: ${file.path}: ${file.reason}; its order may or may not exist`);
      if (ctx.printer.jsonMode)
        await ctx.printer.json({ from: folder, to: store.where, ...counts, unreadable: unreadable.length });
      else
        ctx.printer.note(
          `energy: ${records.length} record(s) from ${folder}: ${counts.added} added, ${counts.settled} settled there, ${counts.present} already there`,
        );
      if (unreadable.length > 0)
        throw new ConflictError(`${unreadable.length} journal record(s) unreadable, not imported (the paths above)`, {
          hint: '`energy order list` shows whether their orders exist',
        });
    });
  return state;
}
