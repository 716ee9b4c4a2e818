/**
 * A world whose sandbox is reached through a proxy: a TLS front for it under TEST_HOST (a name only the test
 * proxy resolves, with a certificate from the test CA) and an open CONNECT proxy. The API and TRON-node proxy
 * suites both need exactly this before they send anything, so it is set up (and torn down) in one place.
 */
import type { SandboxOptions } from '../../src/sandbox/index.js';
import {
  makeCertificates,
  startConnectProxy,
  startTlsFront,
  type Listening,
  type TestCertificates,
  type TestProxy,
} from './proxy.js';
import { createWorld, type World } from './world.js';

export interface ProxiedWorld {
  world: World;
  certs: TestCertificates;
  /** The TLS front: `https://${TEST_HOST}:${front.port}` reaches the sandbox through the proxy. */
  front: Listening;
  /** A CONNECT proxy without credentials. */
  proxy: TestProxy;
  close(): Promise<void>;
}

export async function startProxiedWorld(options: SandboxOptions = {}): Promise<ProxiedWorld> {
  const world = await createWorld(options);
  const certs = makeCertificates();
  const front = await startTlsFront(certs, Number(new URL(world.sandbox.url).port));
  const proxy = await startConnectProxy();
  return {
    world,
    certs,
    front,
    proxy,
    close: async () => {
      await Promise.all([front.close(), proxy.close(), world.close()]);
      certs.remove();
    },
  };
}
