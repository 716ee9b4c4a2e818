import { describe, expect, it } from 'vitest';
import { ADDRESS, json } from '../helpers/world.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();

describe('energy time', () => {
  it('prints the server clock and the skew as JSON', async () => {
    const result = await world.run(['time', '--json']);
    expect(result.code).toBe(0);
    const body = json<{ unix_time: number; local_unix_time: number; skew_seconds: number }>(result);
    expect(Math.abs(body.unix_time - Date.now() / 1000)).toBeLessThan(5);
    expect(Math.abs(body.skew_seconds)).toBeLessThanOrEqual(1);
    expect(result.stderr).toBe('');
  });

  it('shows the skew of a server whose clock is 15 minutes ahead', async () => {
    world.sandbox.setClockOffset(900);
    try {
      const result = await world.run(['time']);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/Skew\s+\+900 s: the local clock is 900 s behind the server's/);
    } finally {
      world.sandbox.setClockOffset(0);
      await world.run(['time']);
    }
  });

  it('needs no credentials', async () => {
    const result = await world.run(['time', '--json'], {
      env: { ENERGY_API_KEY: undefined, ENERGY_API_SECRET: undefined },
    });
    expect(result.code).toBe(0);
  });
});

describe('energy balance', () => {
  it('prints the API object with --json', async () => {
    const result = await world.run(['balance', '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({ available_trx: '1000.000000', held_trx: '0.000000', status: 'active' });
  });

  it('prints a key/value block with amounts exactly as sent', async () => {
    const result = await world.run(['balance']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Available\s+1000\.000000 TRX$/m);
    expect(result.stdout).toMatch(/^Held\s+0\.000000 TRX$/m);
    expect(result.stdout).toMatch(/^Status\s+active$/m);
  });
});

describe('energy options', () => {
  it('normalises duration_hours sent as strings to integers', async () => {
    const result = await world.run(['--json', 'options']);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({
      energy_per_portion: 1000,
      max_energy: 5_000_000,
      duration_hours: [1, 3, 6, 24, 72, 168],
      intake_enabled: true,
    });
  });

  it('prints a readable block', async () => {
    const result = await world.run(['options']);
    expect(result.stdout).toMatch(/^Durations \(hours\)\s+1, 3, 6, 24, 72, 168$/m);
    expect(result.stdout).toMatch(/^Intake\s+enabled$/m);
  });
});

describe('energy quote', () => {
  it('prints the quote as JSON with six-digit amounts', async () => {
    const result = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '1', '--json']);
    expect(result.code).toBe(0);
    expect(json(result)).toEqual({
      address: ADDRESS,
      energy: 65000,
      duration_hours: 1,
      energy_trx: '2.600000',
      activation_trx: '1.100000',
      total_trx: '3.700000',
      can_afford: true,
    });
  });

  it('with a TRON node configured, shows what burning the same energy would cost: 65,000 at 210 sun is 13.650000', async () => {
    world.sandbox.setEnergyFee(210);
    const parameterReads = () =>
      world.sandbox.tronRequests().filter((request) => request.path === '/wallet/getchainparameters').length;
    try {
      const withNode = { env: { ENERGY_TRON_NODE: world.sandbox.url } };
      const asJson = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '1', '--json'], withNode);
      expect(json(asJson)).toMatchObject({ total_trx: '3.700000', burn_trx: '13.650000' });
      const table = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '1'], withNode);
      expect(table.stdout).toMatch(/^Burn instead\s+13\.650000 TRX$/m);
      // Without a node (the tests' default environment), nothing is added and the node is not asked.
      const before = parameterReads();
      const without = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '1', '--json']);
      expect(json(without)).not.toHaveProperty('burn_trx');
      expect(parameterReads()).toBe(before);
    } finally {
      world.sandbox.setEnergyFee(100);
    }
  });

  it('prints a readable quote', async () => {
    const result = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '1']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Energy\s+65,000$/m);
    expect(result.stdout).toMatch(/^Total\s+3\.700000 TRX$/m);
  });

  it('passes the API 400 for energy that is not a multiple of the portion as exit 2 with the field', async () => {
    const result = await world.run(['quote', ADDRESS, '--energy', '65500', '--hours', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/energy/);
    expect(result.stdout).toBe('');
  });

  it('prints one error object with the Problem Details body inside on stderr with --json', async () => {
    const result = await world.run(['quote', ADDRESS, '--energy', '65000', '--hours', '2', '--json']);
    expect(result.code).toBe(2);
    const { error } = JSON.parse(result.stderr) as {
      error: {
        exit_code: number;
        message: string;
        hint: string | null;
        problem: { status: number; errors: { field: string }[] };
      };
    };
    expect(Object.keys(error)).toEqual(['exit_code', 'message', 'hint', 'problem']);
    expect(error.exit_code).toBe(2);
    expect(error.message).toMatch(/^POST \/v1\/energy\/quotes failed: VALIDATION_FAILED/);
    expect(error.problem.status).toBe(400);
    expect(error.problem.errors.map((e) => e.field)).toContain('duration_hours');
  });
});
