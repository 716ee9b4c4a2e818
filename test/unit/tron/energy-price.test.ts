/**
 * The price of burning energy: getEnergyFee from a node's getchainparameters, read once per client, and
 * what burning an amount of energy costs, exactly. The answers are shaped as java-tron prints them:
 * GetChainParametersServlet writes Wallet.getChainParameters() with protobuf's JsonFormat, so a parameter
 * whose value is 0 has no `value` (as GetBlock's published sample and Tangem's `value: Int?` decoder show).
 */
import { describe, expect, it } from 'vitest';
import { burnTrx, sunToTrx } from '../../../src/domain/burn.js';
import { ExitCode } from '../../../src/domain/errors.js';
import { jsonReply } from '../../helpers/http-server.js';
import { scriptedTronForSuite } from '../../helpers/scripted-tron.js';

const tron = scriptedTronForSuite();

/** A mainnet-shaped answer with getEnergyFee set to `fee` (absent when 0, as protobuf JSON leaves it). */
function parameters(fee: number) {
  return {
    chainParameter: [
      { key: 'getMaintenanceTimeInterval', value: 21_600_000 },
      { key: 'getAccountUpgradeCost', value: 9_999_000_000 },
      { key: 'getCreateAccountFee', value: 100_000 },
      { key: 'getTransactionFee', value: 1000 },
      fee === 0 ? { key: 'getEnergyFee' } : { key: 'getEnergyFee', value: fee },
      { key: 'getAllowSameTokenName', value: 1 },
    ],
  };
}

describe('burnTrx', () => {
  it.each([
    [65_000, 210, '13.650000'],
    [65_000, 100, '6.500000'],
    [131_000, 420, '55.020000'],
    [1, 1, '0.000001'],
    [0, 210, '0.000000'],
    // Beyond 2^53 sun: exact, never through a float.
    [Number.MAX_SAFE_INTEGER, 1000, '9007199254740.991000'],
  ])('%d energy at %d sun is %s TRX', (energy, sun, trx) => {
    expect(burnTrx(energy, sun)).toBe(trx);
  });

  it('sunToTrx keeps the sign of a negative amount', () => {
    expect(sunToTrx(-1_500_000n)).toBe('-1.500000');
  });
});

describe('TronNode.getEnergyPrice', () => {
  it('reads getEnergyFee among the parameters, once per client', async () => {
    tron.server.seen.length = 0;
    tron.server.script(jsonReply(200, parameters(210)));
    expect(await tron.node.getEnergyPrice()).toEqual({ sunPerEnergy: 210 });
    expect(await tron.node.getEnergyPrice()).toEqual({ sunPerEnergy: 210 });
    expect(tron.server.seen.map((request) => request.url)).toEqual(['/wallet/getchainparameters']);
  });

  it.each([
    ['no chainParameter', {}],
    ['no getEnergyFee', { chainParameter: [{ key: 'getTransactionFee', value: 1000 }] }],
    ['a fee that is not a whole number', parameters(0.5)],
  ])('%s is a node that breaks the spec (exit 7)', async (_name, body) => {
    const { TronNode } = await import('../../../src/tron/tron-node.js');
    const node = new TronNode({ baseUrl: tron.server.url, retryPolicy: { retries: 0 } });
    tron.server.script(jsonReply(200, body));
    await expect(node.getEnergyPrice()).rejects.toMatchObject({ exitCode: ExitCode.service });
    await node.close();
  });

  it('a fee of 0 is left out by protobuf and reads as 0', async () => {
    const { TronNode } = await import('../../../src/tron/tron-node.js');
    const node = new TronNode({ baseUrl: tron.server.url, retryPolicy: { retries: 0 } });
    tron.server.script(jsonReply(200, parameters(0)));
    expect(await node.getEnergyPrice()).toEqual({ sunPerEnergy: 0 });
    await node.close();
  });
});
