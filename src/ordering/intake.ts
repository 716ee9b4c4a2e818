/**
 * The options' `intake_enabled: false`: the server takes no new orders now. `order create` stops before
 * any order (exit 5) instead of sending one only to meet a 409; `quote` and a dry run say so.
 */
import { ConflictError } from '../domain/cli-errors.js';

export const INTAKE_DISABLED = 'intake of new orders is disabled (GET /v1/energy/options says intake_enabled: false)';

const HINT = 'try again later: `energy options` shows Intake: enabled when orders are taken again';

export function intakeDisabledError(): ConflictError {
  return new ConflictError(`${INTAKE_DISABLED}: no order was placed`, { hint: HINT });
}
