/** The TRON node goes through the same proxy rules as the API (HTTPS_PROXY, a CONNECT tunnel). */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshAddress } from '../helpers/e2e.js';
import {
  makeCertificates,
  startConnectProxy,
  startTlsFront,
  TEST_HOST,
  type Listening,
  type TestCertificates,
  type TestProxy,
} from '../helpers/proxy.js';
import { createWorld, json, type World } from '../helpers/world.js';

const ADDRESS = freshAddress(9901);
let world: World;
let certs: TestCertificates;
let front: Listening;
let proxy: TestProxy;

beforeAll(async () => {
  world = await createWorld({ tronAccounts: { [ADDRESS]: { energy: 65_000 } } });
  certs = makeCertificates();
  front = await startTlsFront(certs, Number(new URL(world.sandbox.url).port));
  proxy = await startConnectProxy();
});
afterAll(async () => {
  await Promise.all([front.close(), proxy.close(), world.close()]);
  certs.remove();
});

it('reads the chain through a CONNECT tunnel named by HTTPS_PROXY, to a host only the proxy resolves', async () => {
  const [tunnels, requests] = [proxy.tunnels.length, world.sandbox.tronRequests().length];
  const env = {
    ENERGY_TRON_NODE: `https://${TEST_HOST}:${front.port}`,
    NODE_EXTRA_CA_CERTS: certs.caFile,
    HTTPS_PROXY: `http://127.0.0.1:${proxy.port}`,
  };
  const result = await world.run(['address', ADDRESS, '--json'], { env });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(json(result)).toMatchObject({ energy_available: 65_000 });
  // One call (getaccountresource), through one tunnel to the node.
  expect(proxy.tunnels.slice(tunnels).map((t) => t.target)).toEqual([`${TEST_HOST}:${front.port}`]);
  expect(world.sandbox.tronRequests().length - requests).toBe(1);
});
