/** client/decode: the error of a failed exchange says the server's words once, without doubled punctuation. */
import { describe, expect, it } from 'vitest';
import { decodeFailure } from '../../../src/client/decode.js';
import { ApiError } from '../../../src/domain/errors.js';

const problem = (detail: string) => ({
  status: 429,
  headers: { 'content-type': 'application/problem+json' },
  text: JSON.stringify({ type: 'about:blank', title: 'Too Many Requests', status: 429, code: 'RATE_LIMITED', detail }),
});

describe('decodeFailure', () => {
  it('joins the server\'s field messages without their full stops (no `".;`)', () => {
    const body = {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'The request is not valid.',
      errors: [
        { field: 'address', code: 'INVALID', message: 'must be a TRON address, not "x".' },
        { field: 'energy', code: 'INVALID', message: 'must be a multiple of 1000.' },
      ],
    };
    const response = {
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
      text: JSON.stringify(body),
    };
    expect(decodeFailure(response, 'POST /v1/energy/quotes').message).toBe(
      'POST /v1/energy/quotes failed: VALIDATION_FAILED: The request is not valid. (address: must be a TRON address, not "x"; energy: must be a multiple of 1000)',
    );
  });

  it("goes on after the server's full stop without keeping it (no `.;`)", () => {
    const error = decodeFailure(problem('Slow down.'), 'GET /v1/balance', 3600, 'the server asks to wait 1 h');
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('GET /v1/balance failed: RATE_LIMITED: Slow down; the server asks to wait 1 h');
  });

  it("keeps the server's full stop when nothing follows, and an ellipsis always", () => {
    expect(decodeFailure(problem('Slow down.'), 'GET /v1/balance').message).toBe(
      'GET /v1/balance failed: RATE_LIMITED: Slow down.',
    );
    expect(decodeFailure(problem('Slow down...'), 'GET /v1/balance', undefined, 'later').message).toBe(
      'GET /v1/balance failed: RATE_LIMITED: Slow down...; later',
    );
  });
});
