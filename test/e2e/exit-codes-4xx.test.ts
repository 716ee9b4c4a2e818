/**
 * The contract's exit 2 for the API's 415 (and 422, which validating servers send for the same kind of
 * input problem): the answer is about the request, so it is not retried and it is not a service failure (7).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { expectNoStackTrace } from '../helpers/e2e.js';
import { ADDRESS } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();
afterEach(() => world.sandbox.clearFaults());

const QUOTES = '/v1/energy/quotes';

describe('exit 2 for the API refusing the request itself', () => {
  it.each([
    [415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Media Type'],
    [422, 'UNPROCESSABLE_ENTITY', 'Unprocessable Entity'],
  ])('the API answers %i: exit 2, one request, the code named', async (status, code, title) => {
    const problem = { type: 'about:blank', title, status, detail: `${code} detail`, code };
    world.sandbox.inject({
      kind: 'raw',
      status,
      contentType: 'application/problem+json',
      body: JSON.stringify(problem),
      times: 4,
      match: { method: 'POST', path: QUOTES },
    });
    const before = world.sandbox.requestCount(QUOTES);
    const result = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '1']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^energy: error: POST /v1/energy/quotes failed: ${code}`, 'm'));
    expectNoStackTrace(result);
    expect(world.sandbox.requestCount(QUOTES) - before).toBe(1);
  });

  it('the same with --json: exit_code 2 and the problem in the error document', async () => {
    const problem = { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'no', code: 'X_422' };
    world.sandbox.inject({
      kind: 'raw',
      status: 422,
      contentType: 'application/problem+json',
      body: JSON.stringify(problem),
      match: { method: 'POST', path: QUOTES },
    });
    const result = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '1', '--json']);
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stderr.trim().split('\n').at(-1)!) as {
      error: { exit_code: number; problem: { status: number; code: string } | null };
    };
    expect(report.error).toMatchObject({ exit_code: 2, problem: { status: 422, code: 'X_422' } });
  });
});
