/** The sandbox's TRON node: java-tron's quirks, seeded accounts, and EnergyLimit following the orders. */
import { describe, expect, it } from 'vitest';
import { USDT_MAINNET } from '../../../src/tron/tokens.js';
import { encodeTransferParameter } from '../../../src/tron/abi.js';
import { USDT_TRANSFER_ENERGY, USDT_TRANSFER_ENERGY_NEW_HOLDER, type Sandbox } from '../../../src/sandbox/index.js';
import { parseSeedAddress } from '../../../src/sandbox/tron-seed.js';
import { testAddress } from './addresses.js';
import { orderRequest, useSandbox } from './fixtures.js';
import { call } from './signed-request.js';

const start = useSandbox();

function wallet(sandbox: Sandbox, path: string, body: unknown, headers: Record<string, string> = {}) {
  return call(sandbox, { method: 'POST', path: `/wallet/${path}`, body: JSON.stringify(body), sign: false, headers });
}
const resource = (s: Sandbox, address: string) => wallet(s, 'getaccountresource', { address, visible: true });
const account = (s: Sandbox, address: string) => wallet(s, 'getaccount', { address, visible: true });

describe('accounts', () => {
  it('answers {} for an address it does not know (not activated), on both calls', async () => {
    const s = await start();
    expect((await resource(s, testAddress(1))).json).toEqual({});
    expect((await account(s, testAddress(1))).json).toEqual({});
  });

  it('leaves zero counters out, as protobuf-to-JSON does', async () => {
    const s = await start({ tronAccounts: { [testAddress(2)]: { energy: 65_000 } } });
    const { status, json } = await resource(s, testAddress(2));
    expect(status).toBe(200);
    expect(json).toMatchObject({ freeNetLimit: 600, EnergyLimit: 65_000 });
    expect(json).not.toHaveProperty('EnergyUsed');
    expect(json).not.toHaveProperty('freeNetUsed');
    expect(json).not.toHaveProperty('NetLimit');
  });

  it('reports seeded usage', async () => {
    const s = await start();
    s.seedTronAccount(testAddress(3), { energy: 65_000, energyUsed: 20_000, bandwidthUsed: 270 });
    expect((await resource(s, testAddress(3))).json).toMatchObject({
      EnergyLimit: 65_000,
      EnergyUsed: 20_000,
      freeNetLimit: 600,
      freeNetUsed: 270,
    });
    expect((await account(s, testAddress(3))).json).toMatchObject({ address: testAddress(3) });
  });

  it('an inactive seed stays {}', async () => {
    const s = await start({ tronAccounts: { [testAddress(4)]: { activated: false, usdt: 5n } } });
    expect((await account(s, testAddress(4))).json).toEqual({});
  });

  it('answers an unreadable address with HTTP 200 and {"Error": …}, as java-tron does', async () => {
    const s = await start();
    const { status, json } = await wallet(s, 'getaccount', { address: 'T123', visible: true });
    expect(status).toBe(200);
    expect(json.Error).toMatch(/IllegalArgumentException/);
  });

  it('records the TRON-PRO-API-KEY each request carried', async () => {
    const s = await start();
    await wallet(s, 'getaccount', { address: testAddress(1), visible: true }, { 'TRON-PRO-API-KEY': 'k-123' });
    await account(s, testAddress(1));
    expect(s.tronRequests()).toEqual([
      { path: '/wallet/getaccount', apiKey: 'k-123' },
      { path: '/wallet/getaccount', apiKey: undefined },
    ]);
  });
});

describe('coherent with the orders', () => {
  it("an order's energy appears once delivered and leaves when it expires; delivery activates the address", async () => {
    // Sandbox time moved on by the test: no real time needs to pass.
    const s = await start({ deliverAfterMs: 60_000, hourMs: 3_600_000 });
    const address = testAddress(10);
    const created = await call(s, {
      method: 'POST',
      path: '/v1/energy/orders',
      body: JSON.stringify(orderRequest({ address })),
    });
    expect(created.status).toBe(201);
    expect((await resource(s, address)).json).toEqual({});
    s.advance(30_000);
    expect((await resource(s, address)).json).toEqual({});
    s.advance(30_000);
    expect((await resource(s, address)).json).toMatchObject({ EnergyLimit: 65_000 });
    expect((await account(s, address)).json).toMatchObject({ address });
    s.advance(3_600_000);
    const after = (await resource(s, address)).json;
    expect(after).not.toHaveProperty('EnergyLimit');
    expect(after).toMatchObject({ freeNetLimit: 600 });
  });

  it('adds delivered rentals to seeded energy', async () => {
    const s = await start({ deliverAfterMs: 60_000, tronAccounts: { [testAddress(11)]: { energy: 1_000 } } });
    const body = orderRequest({ address: testAddress(11), expected_total_trx: '2.600000' });
    expect((await call(s, { method: 'POST', path: '/v1/energy/orders', body: JSON.stringify(body) })).status).toBe(201);
    s.advance(60_000);
    expect((await resource(s, testAddress(11))).json).toMatchObject({ EnergyLimit: 66_000 });
  });

  it('a seeded activated address pays no activation in quotes; an unknown one does', async () => {
    const s = await start({ tronAccounts: { [testAddress(12)]: {} } });
    const quote = (address: string) =>
      call(s, {
        method: 'POST',
        path: '/v1/energy/quotes',
        body: JSON.stringify({ address, energy: 65_000, duration_hours: 1 }),
      });
    expect((await quote(testAddress(12))).json.activation_trx).toBeNull();
    expect((await quote(testAddress(13))).json.activation_trx).toBe('1.100000');
  });
});

describe('triggerconstantcontract', () => {
  const transfer = (s: Sandbox, from: string, to: string, amount: bigint, contract = USDT_MAINNET) =>
    wallet(s, 'triggerconstantcontract', {
      owner_address: from,
      contract_address: contract,
      function_selector: 'transfer(address,uint256)',
      parameter: encodeTransferParameter(to, amount),
      visible: true,
    });

  it('uses 64,285 energy to a USDT holder and 130,285 to an address without USDT', async () => {
    const s = await start({ tronAccounts: { [testAddress(20)]: { usdt: 10n }, [testAddress(21)]: { usdt: 1n } } });
    expect((await transfer(s, testAddress(20), testAddress(21), 10n)).json).toMatchObject({
      result: { result: true },
      energy_used: USDT_TRANSFER_ENERGY,
    });
    expect((await transfer(s, testAddress(20), testAddress(22), 1n)).json).toMatchObject({
      energy_used: USDT_TRANSFER_ENERGY_NEW_HOLDER,
    });
  });

  it('reverts as a live node does when the sender holds less than the amount: result true, message, FAILED', async () => {
    const s = await start({ tronAccounts: { [testAddress(20)]: { usdt: 10n } } });
    const { json } = await transfer(s, testAddress(20), testAddress(21), 11n);
    expect(json.result).toEqual({ result: true, message: 'REVERT opcode executed' });
    expect(json.transaction.ret).toEqual([{ ret: 'FAILED' }]);
    expect(json.constant_result).toEqual(['']);
    expect(json).toMatchObject({ energy_used: 8624, energy_penalty: 5859 });
  });

  it('refuses a contract it does not have', async () => {
    const s = await start();
    const { json } = await transfer(s, testAddress(20), testAddress(21), 1n, testAddress(30));
    expect(json.result.code).toBe('CONTRACT_VALIDATE_ERROR');
  });
});

describe('contract accounts, bandwidth and drift', () => {
  it('a contract account says "type":"Contract" in getaccount, as java-tron prints a non-default enum; others omit type', async () => {
    const s = await start({ tronAccounts: { [testAddress(40)]: { contract: true }, [testAddress(41)]: {} } });
    expect((await account(s, testAddress(40))).json).toMatchObject({ type: 'Contract', address: testAddress(40) });
    expect((await account(s, testAddress(41))).json).not.toHaveProperty('type');
    expect((await account(s, USDT_MAINNET)).json).toMatchObject({ type: 'Contract', account_name: 'TetherToken' });
  });

  it('staked bandwidth is NetLimit beside the free 600', async () => {
    const s = await start({ tronAccounts: { [testAddress(42)]: { bandwidth: 1_000, bandwidthUsed: 100 } } });
    expect((await resource(s, testAddress(42))).json).toMatchObject({
      freeNetLimit: 600,
      freeNetUsed: 100,
      NetLimit: 1_000,
    });
  });

  it('drift makes a delivered rental read short; seeded energy does not drift', async () => {
    const s = await start({ deliverAfterMs: 60_000, tronAccounts: { [testAddress(43)]: { energy: 1_000 } } });
    s.setEnergyDrift(20);
    const body = orderRequest({ address: testAddress(43), expected_total_trx: '2.600000' });
    expect((await call(s, { method: 'POST', path: '/v1/energy/orders', body: JSON.stringify(body) })).status).toBe(201);
    s.advance(60_000);
    expect((await resource(s, testAddress(43))).json).toMatchObject({ EnergyLimit: 1_000 + 65_000 - 130 });
  });
});

describe('--seed-address specs', () => {
  it.each([
    [`${testAddress(1)}`, {}],
    [`${testAddress(1)}:energy=65000,used=20000`, { energy: 65_000, energyUsed: 20_000 }],
    [
      `${testAddress(1)}:usdt=123456789012345678901234567890,inactive,bandwidth-used=5`,
      { usdt: 123456789012345678901234567890n, activated: false, bandwidthUsed: 5 },
    ],
    [`${testAddress(1)}:contract,bandwidth=1000`, { contract: true, bandwidth: 1_000 }],
  ])('reads %s', (text, seed) => {
    expect(parseSeedAddress(text)).toEqual({ address: testAddress(1), seed });
  });

  it.each([
    'T123',
    `${testAddress(1)}:energy=-1`,
    `${testAddress(1)}:energy=1.5`,
    `${testAddress(1)}:color=red`,
    `${testAddress(1)}:usdt`,
    `${testAddress(1)}:contract=1`,
  ])('refuses %s', (text) => {
    expect(() => parseSeedAddress(text)).toThrow(RangeError);
  });
});
