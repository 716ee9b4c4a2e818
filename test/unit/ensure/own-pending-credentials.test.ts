/**
 * ensure's own request with an unknown outcome is sent again by the next run, before anything else: a 401 on
 * that resend ends the run as a credentials error (exit 3), with nothing else sent or bought; any other
 * failure of it is a note, and the run goes on. Through runEnsure with the fake API.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, CliError, NetworkError } from '../../../src/domain/errors.js';
import { freshAddress } from '../../helpers/e2e.js';
import { FakeApi, FakeNode, Host } from './fakes.js';

const X = freshAddress(22_601);

/** A run whose order request's outcome was never learned: the journal keeps it pending. */
async function leftPending(): Promise<{ api: FakeApi; host: Host }> {
  const api = new FakeApi();
  const host = new Host(api, new FakeNode());
  api.onPost = () => new NetworkError('socket hang up', { outcomeUncertain: true });
  await host.run({ addresses: [X] });
  expect(host.journal.pending()).toHaveLength(1);
  return { api, host };
}

describe("the resend of ensure's own pending request", () => {
  it('answered 401: the run ends with exit 3, nothing else sent, nothing bought', async () => {
    const { api, host } = await leftPending();
    const posts = api.posted.length;
    api.onPost = () => new AuthError('POST /v1/energy/orders failed: 401 UNAUTHORIZED: bad signature', { status: 401 });
    const run = host.run({ addresses: [X] });
    await expect(run).rejects.toSatisfy((e) => e instanceof CliError && e.exitCode === 3);
    expect(api.posted).toHaveLength(posts + 1);
    expect(api.ordersTo(X)).toHaveLength(0);
    expect(host.notes.join('\n')).not.toMatch(/was sent again and failed/);
  });

  it('answered 422 (refused, nothing placed): a note, and the run goes on to the address', async () => {
    const { api, host } = await leftPending();
    api.onPost = () => new ApiError(422, 'address frozen', undefined);
    const [item] = await host.run({ addresses: [X] });
    expect(host.notes.join('\n')).toMatch(/was sent again and failed: address frozen/);
    expect(host.journal.pending()).toHaveLength(0);
    // The address was sized and ordered for again (the same 422 for the new request).
    expect(item).toMatchObject({ address: X, reason: 'failed' });
    expect(api.ordersTo(X)).toHaveLength(0);
  });
});
