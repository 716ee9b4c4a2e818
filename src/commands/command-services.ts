/** What a command's run is given besides its parsed options (built by Context.services()). */
import type { EnergyClient } from '../client/client.js';
import type { OrderJournal } from '../journal/order-journal.js';
import type { Printer } from '../output/printer.js';
import type { Terminal } from '../output/terminal.js';
import type { StateStore } from '../state/state-store.js';

/**
 * What a command's run takes from the program, lazily (gh's Factory): an options object of a command
 * (`CreateCommandOptions`, `EnsureCommandOptions`) carries these beside what its command line parsed into.
 */
export interface CommandServices {
  client: () => Promise<EnergyClient>;
  journal: () => Promise<OrderJournal>;
  state: () => Promise<StateStore>;
  terminal: Terminal;
  printer: Printer;
  verbose: boolean;
  invocation: (...words: string[]) => string;
}
