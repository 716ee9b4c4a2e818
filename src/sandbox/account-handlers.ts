/** Handlers that read the clock, the account and the offer, and price a rental. */
import type { BalanceResponse, OptionsResponse, QuoteRequest, QuoteResponse, TimeResponse } from '../client/types.js';
import { DURATIONS_ON_WIRE, ENERGY_PER_PORTION, MAX_ENERGY } from './catalog.js';
import type { SandboxCore } from './core.js';
import { jsonReply, problemReply, validationReply, type Reply } from './reply.js';
import type { RouteContext } from './route-context.js';
import { validateQuote } from './validate-request.js';

export function getTime({ core }: RouteContext): Reply {
  const body: TimeResponse = { unix_time: core.options.timeAnswer ?? core.clock.unixSeconds() };
  return jsonReply(200, body);
}

export function getBalance({ core }: RouteContext): Reply {
  const body: BalanceResponse = { available_trx: core.book.available, held_trx: core.book.held, status: 'active' };
  return jsonReply(200, body);
}

export function getOptions({ core }: RouteContext): Reply {
  // The wire form mixes integers and integer strings on purpose; the client type describes the normalised form.
  const body: Omit<OptionsResponse, 'duration_hours'> & { duration_hours: readonly (number | string)[] } = {
    energy_per_portion: ENERGY_PER_PORTION,
    max_energy: MAX_ENERGY,
    duration_hours: DURATIONS_ON_WIRE,
    intake_enabled: core.intake,
  };
  return jsonReply(200, body);
}

export function intakeDisabled(): Reply {
  return problemReply(409, 'INTAKE_DISABLED', 'Intake of new orders is disabled; try again later.');
}

/** The current price for a request, including activation when the address has never had a delivery here. */
export function currentQuote(core: SandboxCore, request: QuoteRequest): QuoteResponse {
  return core.pricing.quote(request, core.book.isActivated(request.address), core.book.available);
}

export function postQuote({ core, body }: RouteContext): Reply {
  const validated = validateQuote(body);
  if (!validated.ok) return validationReply(validated.errors);
  if (!core.intake) return intakeDisabled();
  return jsonReply(200, currentQuote(core, validated.value));
}
