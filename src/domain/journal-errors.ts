/**
 * The failures of the order journal itself (part of the taxonomy in errors.ts, kept apart for its size):
 * a record that cannot be read, a journal that cannot be written before a send, and after one.
 */
import { CliError, ExitCode } from './errors.js';
import { clause, printable } from './printable.js';

/**
 * The journal holds a record for this client_request_id that cannot be read (damaged, or from a newer
 * version): whether its order was placed is unknown, so the id is not used until the file is looked at.
 * Exit 5, as for any id that conflicts with what is already recorded; nothing was sent.
 */
export class UnreadableRecordError extends CliError {
  override name = 'UnreadableRecordError';
  constructor(clientRequestId: string, path: string, reason: string) {
    super(
      `the journal record for client_request_id ${printable(clientRequestId, 80)} is unreadable (${reason}): whether its order was placed is unknown; nothing was sent`,
      ExitCode.conflict,
      {
        hint: `look at ${printable(path, 300)} (\`energy order list\` shows whether the order exists); remove it once settled, or use another client_request_id`,
      },
    );
  }
}

/**
 * The order journal could not be written (a full disk, a read-only or broken state folder). Before a
 * request is sent this is a local setup failure like an unusable state folder (exit 2, nothing sent);
 * after a send, `journalFailedAfterSend` says what is known about the order instead.
 */
export class JournalWriteError extends CliError {
  override name = 'JournalWriteError';
  constructor(message: string, options?: { hint?: string }) {
    super(message, ExitCode.usage, options);
  }
}

/**
 * The shared state store (PostgreSQL, ENERGY_STATE_URL) cannot be reached, or refuses this run (a wrong
 * password, no such database, no right to create the schema): exit 11, before any order is sent. Its message
 * names the database with the password redacted.
 */
export class StateStoreError extends CliError {
  override name = 'StateStoreError';
  constructor(message: string, options?: { hint?: string; cause?: unknown }) {
    super(message, ExitCode.stateStore, options);
  }
}

/**
 * The server placed (or returned) the order, and the journal could not record it: the record stays
 * pending, so `order recover` settles it later by resending its bytes (never a second order). Exit 7, the
 * code of an order whose outcome this run could not record, never 2: a script must not take it for
 * "nothing happened" and buy again under a new id.
 */
export class OrderUnrecordedError extends CliError {
  override name = 'OrderUnrecordedError';
  constructor(clientRequestId: string, orderId: string, cause: CliError, recoverCommand: string) {
    super(
      `order ${printable(orderId, 80)} was placed (client_request_id ${printable(clientRequestId, 80)}), but ${clause(cause.message)}; its journal record stays pending`,
      ExitCode.service,
      {
        cause,
        hint: `once the journal can be written, settle it (this never places a second order) with: ${recoverCommand}`,
        outcomeUncertain: true,
      },
    );
  }
}
