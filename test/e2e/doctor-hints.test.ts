/**
 * `doctor` gives the hints the commands it checks would give, from the same code: a key and a secret from
 * different places on a 401, the URL and its source (and the sandbox) for a server that is not there, and
 * the TRON node's refusal of a key named with where the key came from.
 */
import { describe, expect, it } from 'vitest';
import type { CliResult } from '../helpers/cli.js';
import { deadUrl, freshAddress } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';
import { json } from '../helpers/world.js';

const world = worldForSuite();

interface Check {
  name: string;
  status: string;
  hint: string | null;
}
const check = (result: CliResult, name: string) =>
  json<{ checks: Check[] }>(result).checks.find((found) => found.name === name)!;
/** The hint line of a command's error, without its `hint: ` prefix. */
const hintOf = (result: CliResult) => /^hint: (.*)$/m.exec(result.stderr)?.[1];

describe('doctor hints are the commands’ hints', () => {
  it('a 401 with the key from the profile and the secret from the environment says so, as balance does', async () => {
    expect((await world.run(['config', 'set', 'api-key', world.sandbox.apiKey])).code).toBe(0);
    const env = { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_API_KEY: undefined, ENERGY_API_SECRET: 'not-the-secret' };
    try {
      const balance = await world.run(['balance'], { env });
      expect(balance.code).toBe(3);
      const note = 'the API key comes from the profile and the secret from the environment (profile default)';
      expect(hintOf(balance)).toContain(note);
      const doctor = await world.run(['doctor', '--json'], { env });
      expect(doctor.code).toBe(3);
      expect(check(doctor, 'credentials')).toMatchObject({ status: 'fail', hint: expect.stringContaining(note) });
    } finally {
      await world.run(['config', 'unset', 'api-key']);
    }
  });

  it('an API that is not there on loopback: the URL, where it came from, and the sandbox, as balance says', async () => {
    const env = { ENERGY_BASE_URL: await deadUrl(), ENERGY_TRON_NODE: world.sandbox.url };
    const balance = await world.run(['balance', '--retries', '0'], { env });
    expect(balance.code).toBe(7);
    const said = `check the API base URL ${env.ENERGY_BASE_URL} (from ENERGY_BASE_URL); is the sandbox running? start it with \`energy sandbox\` in another terminal`;
    expect(hintOf(balance)).toBe(said);
    const doctor = await world.run(['doctor', '--json'], { env });
    // The same hint, whole: no "; reached directly" fragment after it (the API was not reached).
    expect(check(doctor, 'api')).toMatchObject({ status: 'fail', hint: said });
    expect(check(doctor, 'credentials').hint).toBe(said);
  });

  it('a TRON node that is not there: its URL and where it came from', async () => {
    const node = await deadUrl();
    const doctor = await world.run(['doctor', '--json'], { env: { ENERGY_TRON_NODE: node } });
    expect(check(doctor, 'tron-node')).toMatchObject({
      status: 'fail',
      hint: expect.stringContaining(`check the TRON node ${node} (from ENERGY_TRON_NODE)`),
    });
  });

  it('a TRON node refusing the key names where the key came from, in address and in doctor', async () => {
    const env = { ENERGY_TRON_NODE: world.sandbox.url, ENERGY_TRON_API_KEY: 'tron-key-refused-0001' };
    world.sandbox.inject({ kind: 'status', status: 401, times: 10, match: { path: '/wallet/getaccountresource' } });
    world.sandbox.inject({ kind: 'status', status: 401, times: 10, match: { path: '/wallet/getnowblock' } });
    try {
      const said = 'the node refused the API key from the ENERGY_TRON_API_KEY variable: set ENERGY_TRON_API_KEY again';
      const address = await world.run(['address', freshAddress(51_001)], { env });
      expect(address.code).toBe(3);
      expect(hintOf(address)).toBe(said);
      const doctor = await world.run(['doctor', '--json'], { env });
      expect(check(doctor, 'tron-node')).toMatchObject({ status: 'fail', hint: said });
    } finally {
      world.sandbox.clearFaults();
    }
  });
});
