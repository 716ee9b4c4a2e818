/**
 * A TronNode client (no retries) against a scripted server on 127.0.0.1, for unit suites that check how a
 * node's answers are read: opened before the suite's first test and closed after its last, where called.
 */
import { afterAll, beforeAll } from 'vitest';
import { TronNode } from '../../src/tron/tron-node.js';
import { startScriptedServer, type ScriptedServer } from './http-server.js';

export interface ScriptedTron {
  server: ScriptedServer;
  node: TronNode;
}

/** Its fields are set by the suite's beforeAll. */
export function scriptedTronForSuite(): ScriptedTron {
  const suite = {} as ScriptedTron;
  beforeAll(async () => {
    suite.server = await startScriptedServer();
    suite.node = new TronNode({ baseUrl: suite.server.url, retryPolicy: { retries: 0 } });
  });
  afterAll(async () => {
    await suite.node.close();
    await suite.server.close();
  });
  return suite;
}
