/** A TRON node URL with a path (`http://host:port/some/prefix`) is named whole in the node's errors and hints. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv } from '../helpers/cli.js';
import { closedPort, freshAddress } from '../helpers/e2e.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/http-server.js';
import { createWorld, type World } from '../helpers/world.js';

let world: World;
let node: ScriptedServer;
beforeAll(async () => {
  world = await createWorld();
  node = await startScriptedServer();
});
afterAll(async () => {
  await node.close();
  await world.close();
});

const ADDRESS = freshAddress(9401);

describe('errors about the TRON node name its URL with the path', () => {
  it('unreachable: the message and the hint say http://127.0.0.1:PORT/some/prefix', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/some/prefix`;
    const result = await world.run(['--retries', '0', 'address', ADDRESS], {
      env: { ...baseEnv(world.configDir), ENERGY_TRON_NODE: url },
    });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`TRON node ${url} POST /wallet/getaccountresource`);
    expect(result.stderr).toContain(`check the TRON node ${url} (from ENERGY_TRON_NODE)`);
  });

  it('a bad answer: the message names the URL with its path, and the request went to that path', async () => {
    node.script((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<html>not a node</html>');
    });
    const url = `${node.url.origin}/some/prefix`;
    const before = node.seen.length;
    const result = await world.run(['--retries', '0', 'address', ADDRESS], {
      env: { ...baseEnv(world.configDir), ENERGY_TRON_NODE: url },
    });
    expect(result.code).toBe(7);
    expect(node.seen.slice(before).map((seen) => seen.url)).toEqual(['/some/prefix/wallet/getaccountresource']);
    expect(result.stderr).toContain(`TRON node ${url} POST /wallet/getaccountresource`);
  });

  it('--verbose names the node with its path too', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/some/prefix`;
    const result = await world.run(['--verbose', '--retries', '0', 'address', ADDRESS], {
      env: { ...baseEnv(world.configDir), ENERGY_TRON_NODE: url },
    });
    expect(result.stderr).toContain(`energy: TRON node ${url} (environment)`);
  });
});

describe('errors about the API name its base URL with the path', () => {
  it('unreachable under a prefix: the message says where the request went', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/api/energy`;
    const result = await world.run(['--retries', '0', 'balance'], { env: { ENERGY_BASE_URL: url } });
    expect(result.code).toBe(7);
    expect(result.stderr).toContain(`GET /v1/balance to ${url}`);
  });
});
