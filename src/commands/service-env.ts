/** What building a client (services.ts) needs from the run: its terminal, --verbose/--timeout/--retries, stderr lines. */
import { scrubSecrets } from '../client/redact.js';
import type { Printer } from '../output/printer.js';
import type { Terminal } from '../output/terminal.js';
import type { GlobalOptions } from './shell-words.js';

export interface ServiceEnv {
  terminal: Terminal;
  verbose: boolean;
  timeout: number | undefined;
  retries: number | undefined;
  /** Writes a line on stderr, credentials scrubbed. */
  say: (line: string) => void;
  /** Writes a --verbose line on stderr, credentials scrubbed. */
  trace: (line: string) => void;
}

/**
 * The run's `ServiceEnv`: --verbose, --timeout and --retries as `given` (the run's options, or a command's own
 * defaults: doctor answers quickly), its lines scrubbed of every secret `secrets` knows when each is written.
 */
export function serviceEnv(
  terminal: Terminal,
  printer: Printer,
  given: Pick<GlobalOptions, 'verbose' | 'timeout' | 'retries'>,
  secrets: () => readonly (string | undefined)[],
): ServiceEnv {
  return {
    terminal,
    verbose: given.verbose === true,
    timeout: given.timeout,
    retries: given.retries,
    say: (line) => printer.note(scrubSecrets(line, secrets())),
    trace: (line) => printer.verbose(scrubSecrets(line, secrets())),
  };
}
