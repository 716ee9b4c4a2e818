/**
 * `energy api` given a full URL (as gh api takes one): on the configured API, under its path prefix, it is
 * that API's path; anywhere else it is refused before anything is signed or sent. A real server on 127.0.0.1
 * behind a base URL with a prefix (`/api/energy`), counting what reached it.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnergyClient } from '../../../src/client/client.js';
import { apiRequest, type ApiDeps } from '../../../src/ordering/api-request.js';
import { jsonReply, startScriptedServer, type ScriptedServer } from '../../helpers/http-server.js';

let server: ScriptedServer;
let base: string;
beforeAll(async () => {
  server = await startScriptedServer();
  base = `${server.url.origin}/api/energy`;
});
afterAll(() => server.close());

function deps(): ApiDeps {
  const client = new EnergyClient({
    baseUrl: new URL(base),
    credentials: { apiKey: 'k_unit', apiSecret: 's-unit-0123456789' },
    retryPolicy: { retries: 0 },
  });
  return {
    client: async () => client,
    journal: () => Promise.reject(new Error('no journal in these tests')),
    stdin: new PassThrough(),
    recoverCommand: (id) => `energy order recover ${id}`,
  };
}

describe('energy api with a full URL, under a base URL with a path prefix', () => {
  it('the API prefix and path: sent as that path under the prefix', async () => {
    server.script(jsonReply(200, { unix_time: 1_800_000_000 }));
    server.seen.length = 0;
    const answer = await apiRequest(deps(), { method: 'GET', path: `${base}/v1/time?x=1`, fields: [] });
    expect(answer.status).toBe(200);
    expect(server.seen.map((seen) => seen.url)).toEqual(['/api/energy/v1/time?x=1']);
  });

  it.each([
    ['the same host outside the prefix', () => `${server.url.origin}/other/v1/time`],
    ['a prefix that only starts the same', () => `${base}x/v1/time`],
    ['credentials in the URL', () => base.replace('http://', 'http://user:pw@') + '/v1/time'],
  ])('%s: refused (exit 2), nothing sent', async (_what, url) => {
    server.seen.length = 0;
    await expect(apiRequest(deps(), { method: 'GET', path: url(), fields: [] })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/is not on the configured API \(http:\/\/127\.0\.0\.1:\d+\/api\/energy\)/),
    });
    expect(server.seen).toEqual([]);
  });
});
