/** TronNode against a scripted node:http server on 127.0.0.1: quirks, broken answers, retries, the key header. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CliError, ExitCode, NetworkError, ResponseShapeError, UsageError } from '../../../src/domain/errors.js';
import { TransferRevertedError, TronNodeError } from '../../../src/domain/cli-errors.js';
import { estimateTransfer } from '../../../src/tron/estimate-transfer.js';
import { TronNode } from '../../../src/tron/tron-node.js';
import { jsonReply, startScriptedServer, type Handler, type ScriptedServer } from '../../helpers/http-server.js';

const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const KEY = 'tron-key-0123456789abcdef';

let server: ScriptedServer;
let nodes: TronNode[] = [];
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());
afterEach(async () => {
  await Promise.all(nodes.map((n) => n.close()));
  nodes = [];
  server.seen.length = 0;
});

function makeNode(
  options: { apiKey?: string; retries?: number; log?: (line: string) => void; nowMs?: () => number } = {},
) {
  const delays: number[] = [];
  const node = new TronNode({
    baseUrl: server.url,
    apiKey: options.apiKey,
    retryPolicy: { retries: options.retries ?? 3, baseDelayMs: 10, maxDelayMs: 5_000 },
    timeouts: { requestMs: 2_000, connectMs: 1_000 },
    sleepMs: async (ms) => {
      delays.push(ms);
    },
    log: options.log,
    ...(options.nowMs && { nowMs: options.nowMs }),
  });
  nodes.push(node);
  return { node, delays };
}

const html: Handler = (_request, response) => {
  response.writeHead(502, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>Bad gateway</body></html>');
};
const html200: Handler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome to nginx</body></html>');
};
const reset: Handler = (request, response) => {
  response.socket?.destroy();
  void request;
};

async function failure(promise: Promise<unknown>): Promise<CliError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof CliError)) throw new Error(`expected a CliError, got ${String(error)}`);
  return error;
}

describe('getaccountresource: protobuf quirks', () => {
  it('reads {} (never activated) as all zeros and empty', async () => {
    server.script(jsonReply(200, {}));
    const resource = await makeNode().node.getAccountResource(ADDRESS);
    expect(resource).toEqual({
      EnergyLimit: 0,
      EnergyUsed: 0,
      freeNetLimit: 0,
      freeNetUsed: 0,
      NetLimit: 0,
      NetUsed: 0,
      empty: true,
    });
  });

  it('reads missing counters as 0 and ignores unknown keys', async () => {
    server.script(
      jsonReply(200, { freeNetLimit: 600, EnergyLimit: 65_000, TotalEnergyWeight: 13_500_291_540, somethingNew: 'x' }),
    );
    const resource = await makeNode().node.getAccountResource(ADDRESS);
    expect(resource).toMatchObject({
      EnergyLimit: 65_000,
      EnergyUsed: 0,
      freeNetLimit: 600,
      freeNetUsed: 0,
      empty: false,
    });
  });

  it('sends the address in base58 with visible: true, as POST JSON', async () => {
    server.script(jsonReply(200, {}));
    await makeNode().node.getAccountResource(ADDRESS);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]!.method).toBe('POST');
    expect(server.seen[0]!.url).toBe('/wallet/getaccountresource');
    expect(server.seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[0]!.body.toString())).toEqual({ address: ADDRESS, visible: true });
  });

  it.each([
    ['a counter as a string', { EnergyLimit: '65000' }, /EnergyLimit should be a non-negative integer/],
    ['a negative counter', { EnergyUsed: -1 }, /EnergyUsed should be a non-negative integer/],
    ['an array', [1, 2], /should be an object/],
    ['null', null, /should be an object/],
  ])('refuses %s with exit 7 and one line', async (_label, body, message) => {
    server.script(jsonReply(200, body));
    const error = await failure(makeNode().node.getAccountResource(ADDRESS));
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error.exitCode).toBe(ExitCode.service);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain('\n');
  });
});

describe('getaccount', () => {
  it('{} is not activated; an account object is', async () => {
    server.script(jsonReply(200, {}), jsonReply(200, { address: ADDRESS, create_time: 1 }));
    const { node } = makeNode();
    expect(await node.getAccount(ADDRESS)).toEqual({ activated: false, contract: false });
    expect(await node.getAccount(ADDRESS)).toEqual({ activated: true, contract: false });
  });

  it('"type":"Contract" is a contract account (the USDT contract as api.trongrid.io answers it, trimmed)', async () => {
    // Published, unattributed: a measurement note of `getaccount` for TR7NHq… with visible: true on api.trongrid.io.
    const usdt = {
      account_name: 'TetherToken',
      type: 'Contract',
      address: USDT,
      balance: 1073038702522,
      net_window_size: 28800000,
      frozenV2: [{}, { type: 'ENERGY' }, { type: 'TRON_POWER' }],
    };
    server.script(jsonReply(200, usdt));
    expect(await makeNode().node.getAccount(USDT)).toEqual({ activated: true, contract: true });
  });
});

describe('answers that are not the expected JSON', () => {
  it('an HTML page with 200 is exit 7, one line naming HTML', async () => {
    server.script(html200);
    const error = await failure(makeNode().node.getAccount(ADDRESS));
    expect(error.exitCode).toBe(ExitCode.service);
    expect(error.message).toMatch(/HTML page, not JSON/);
    expect(error.message).not.toContain('\n');
    expect(server.seen).toHaveLength(1);
  });

  it('a 502 HTML page is retried, then exit 7', async () => {
    server.script(html);
    const error = await failure(makeNode({ retries: 2 }).node.getAccount(ADDRESS));
    expect(error.exitCode).toBe(ExitCode.service);
    expect(server.seen).toHaveLength(3);
    expect(error.message).toMatch(/HTTP 502/);
  });

  it('a java-tron {"Error": …} body is reported as the node\'s error, not a crash', async () => {
    server.script(jsonReply(200, { Error: 'class java.lang.IllegalArgumentException : Invalid address' }));
    const error = await failure(makeNode().node.getAccount(ADDRESS));
    expect(error).toBeInstanceOf(TronNodeError);
    expect(error.exitCode).toBe(ExitCode.service);
    expect(error.message).toMatch(
      /the node answered with an error: class java\.lang\.IllegalArgumentException : Invalid address$/,
    );
  });

  it("escapes control characters in the node's text, so that it cannot move the cursor", async () => {
    server.script(jsonReply(200, { Error: 'bad\u001b[2J\rthing' }));
    const error = await failure(makeNode().node.getAccount(ADDRESS));
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
    expect(error.message).toMatch(/bad\\x1b\[2J\\rthing$/);
  });

  it('a truncated body is exit 7', async () => {
    server.script((_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"EnergyLimit":65'),
    );
    const error = await failure(makeNode().node.getAccountResource(ADDRESS));
    expect(error.message).toMatch(/not JSON/);
  });
});

describe('retries', () => {
  it('waits as Retry-After says on 429, then succeeds', async () => {
    server.script(
      jsonReply(429, { Error: 'rate limited' }, { 'retry-after': '2' }),
      jsonReply(200, { EnergyLimit: 5 }),
    );
    const { node, delays } = makeNode();
    expect((await node.getAccountResource(ADDRESS)).EnergyLimit).toBe(5);
    expect(server.seen).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  it("holds back the next calls on the same node until a 429's Retry-After has passed", async () => {
    server.script(
      jsonReply(429, { Error: 'rate limited' }, { 'retry-after': '2' }),
      jsonReply(200, { EnergyLimit: 5 }),
    );
    const now = Date.parse('2026-11-23T10:00:00Z');
    const { node, delays } = makeNode({ nowMs: () => now });
    await node.getAccountResource(ADDRESS);
    expect(delays).toEqual([2000]);
    // No time has passed on this clock: the next call waits the same pause before it sends anything.
    const sent = server.seen.length;
    await node.getAccount(ADDRESS);
    expect(delays).toEqual([2000, 2000]);
    expect(server.seen.length - sent).toBe(1);
  });

  it('429 that outlasts the retries is exit 6 with the key hint', async () => {
    server.script(jsonReply(429, { Error: 'too many requests' }));
    const error = await failure(makeNode({ retries: 2 }).node.getAccountResource(ADDRESS));
    expect(server.seen).toHaveLength(3);
    expect(error.exitCode).toBe(ExitCode.rateLimited);
    expect(error.message).toMatch(/HTTP 429: too many requests/);
    expect(error.hint).toMatch(/tron-api-key/);
  });

  it('403 with a text body (a public node without a key) is exit 6, not retried', async () => {
    server.script((_request, response) =>
      response.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden: exceeds the frequency limit'),
    );
    const error = await failure(makeNode().node.getAccountResource(ADDRESS));
    expect(server.seen).toHaveLength(1);
    expect(error.exitCode).toBe(ExitCode.rateLimited);
    expect(error.message).toMatch(/HTTP 403: Forbidden: exceeds the frequency limit/);
  });

  it('rides out connection resets', async () => {
    server.script(reset, reset, jsonReply(200, { address: ADDRESS }));
    const { node, delays } = makeNode();
    expect(await node.getAccount(ADDRESS)).toEqual({ activated: true, contract: false });
    expect(server.seen).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('resets beyond the retries are a network error (exit 7) naming the attempts', async () => {
    server.script(reset);
    const error = await failure(makeNode({ retries: 1 }).node.getAccount(ADDRESS));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/\(2 attempts\)$/);
  });
});

describe('the API key', () => {
  it('is sent as TRON-PRO-API-KEY and masked in the verbose lines', async () => {
    server.script(jsonReply(200, {}));
    const lines: string[] = [];
    await makeNode({ apiKey: KEY, log: (line) => lines.push(line) }).node.getAccount(ADDRESS);
    expect(server.seen[0]!.headers['tron-pro-api-key']).toBe(KEY);
    expect(lines.join('\n')).not.toContain(KEY);
    expect(lines).toContain(`> TRON-PRO-API-KEY: ****${KEY.slice(-2)}`);
    expect(lines.some((line) => /^< 200 POST \/wallet\/getaccount \(\d+ ms, 2 bytes\)$/.test(line))).toBe(true);
  });

  it('is not sent when there is none', async () => {
    server.script(jsonReply(200, {}));
    await makeNode().node.getAccount(ADDRESS);
    expect(server.seen[0]!.headers['tron-pro-api-key']).toBeUndefined();
  });
});

describe('the http rule', () => {
  it('refuses http:// for a host that is not loopback, before any connection', () => {
    expect(() => new TronNode({ baseUrl: new URL('http://api.trongrid.io') })).toThrow(UsageError);
  });
});

describe('estimateTransfer', () => {
  const simulation = { from: ADDRESS, to: USDT, token: USDT, amount: 1n };

  it('returns energy_used (penalty included) and sends the encoded parameter', async () => {
    server.script(
      jsonReply(200, { result: { result: true }, energy_used: 64_285, energy_penalty: 1_000, constant_result: ['01'] }),
    );
    expect(await estimateTransfer(makeNode().node, simulation)).toEqual({ energyUsed: 64_285, energyPenalty: 1_000 });
    const sent = JSON.parse(server.seen[0]!.body.toString());
    expect(sent).toMatchObject({
      owner_address: ADDRESS,
      contract_address: USDT,
      function_selector: 'transfer(address,uint256)',
      visible: true,
    });
    expect(sent.parameter).toBe(`${'0'.repeat(24)}a614f803b6fd780986a42c78ec9c7f77e6ded13c${'0'.repeat(63)}1`);
  });

  it('a successful call without energy_used (zero left out) uses 0', async () => {
    server.script(jsonReply(200, { result: { result: true } }));
    expect(await estimateTransfer(makeNode().node, simulation)).toEqual({ energyUsed: 0, energyPenalty: 0 });
  });

  it('a revert is its own error (exit 2), with the hex message and the revert reason decoded', async () => {
    const reason = Buffer.from('insufficient').toString('hex');
    const data = `08c379a0${'20'.padStart(64, '0')}${'0c'.padStart(64, '0')}${reason.padEnd(64, '0')}`;
    const message = Buffer.from('REVERT opcode executed').toString('hex');
    server.script(
      jsonReply(200, { result: { code: 'CONTRACT_EXE_ERROR', message }, energy_used: 900, constant_result: [data] }),
    );
    const error = await failure(estimateTransfer(makeNode().node, simulation));
    expect(error).toBeInstanceOf(TransferRevertedError);
    expect(error.exitCode).toBe(ExitCode.usage);
    expect(error.message).toBe(
      'the simulated transfer reverts: CONTRACT_EXE_ERROR: REVERT opcode executed ("insufficient")',
    );
  });

  it('another failure code from the node is exit 7', async () => {
    server.script(jsonReply(200, { result: { code: 'SERVER_BUSY', message: 'busy' } }));
    const error = await failure(estimateTransfer(makeNode().node, simulation));
    expect(error.exitCode).toBe(ExitCode.service);
    expect(error.message).toMatch(/SERVER_BUSY: busy/);
  });

  it('an answer without a result object is exit 7', async () => {
    server.script(jsonReply(200, { energy_used: 5 }));
    const error = await failure(estimateTransfer(makeNode().node, simulation));
    expect(error).toBeInstanceOf(ResponseShapeError);
  });
});

describe('rate limits with a key', () => {
  it('a 429 when a key was sent points at the key and its plan, not at getting one', async () => {
    server.script(jsonReply(429, { Error: 'exceeds the plan' }));
    const error = await failure(makeNode({ apiKey: KEY, retries: 0 }).node.getAccount(ADDRESS));
    expect(error.exitCode).toBe(ExitCode.rateLimited);
    expect(error.hint).toMatch(/limits the API key/);
  });
});
