/** The TRON node goes through the same proxy rules as the API (HTTPS_PROXY, a CONNECT tunnel). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import { startProxiedWorld, type ProxiedWorld } from '../helpers/proxied-world.js';
import { TEST_HOST } from '../helpers/proxy.js';
import { json } from '../helpers/world.js';

const ADDRESS = freshAddress(9901);
let setup: ProxiedWorld;

beforeAll(async () => {
  setup = await startProxiedWorld({ tronAccounts: { [ADDRESS]: { energy: 65_000 } } });
});
afterAll(async () => setup.close());

it('reads the chain through a CONNECT tunnel named by HTTPS_PROXY, to a host only the proxy resolves', async () => {
  const [tunnels, requests] = [setup.proxy.tunnels.length, setup.world.sandbox.tronRequests().length];
  const env = {
    ENERGY_TRON_NODE: `https://${TEST_HOST}:${setup.front.port}`,
    NODE_EXTRA_CA_CERTS: setup.certs.caFile,
    HTTPS_PROXY: `http://127.0.0.1:${setup.proxy.port}`,
  };
  const result = await setup.world.run(['address', ADDRESS, '--json'], { env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(json(result)).toMatchObject({ energy_available: 65_000 });
  // Two calls (getaccountresource, then getaccount: a contract?), through one kept-alive tunnel to the node.
  expect(setup.proxy.tunnels.slice(tunnels).map((t) => t.target)).toEqual([`${TEST_HOST}:${setup.front.port}`]);
  expect(setup.world.sandbox.tronRequests().length - requests).toBe(2);
});
