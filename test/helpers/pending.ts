/**
 * Reads `energy order pending --json`: the client_request_ids of the journal's pending records. Several
 * suites check that a request is (or is no longer) pending by id; this is that reading, written once.
 */
import type { CliResult } from './cli.js';
import { json } from './world.js';

export function pendingIdsOf(result: CliResult): string[] {
  return json<{ items: { client_request_id: string }[] }>(result).items.map((item) => item.client_request_id);
}
