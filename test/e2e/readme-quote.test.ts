/**
 * The README's first quote is what `energy quote` prints with the sandbox of the quick start, whose profile
 * has a TRON node (so the "Burn instead" row is there): the page shows what a newcomer will see.
 */
import { describe, expect, it } from 'vitest';
import { readPage } from '../helpers/manual.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();

describe("the README's first quote", () => {
  it('is the output of the command it shows, Burn instead row included', async () => {
    const block = /^```console\n\$ (energy quote [^\n]*)\n([\s\S]*?)^```$/m.exec(readPage('README.md'))!;
    const args = block[1]!.split(' ').slice(1);
    expect(block[2]).toContain('Burn instead  6.500000 TRX\n');
    const result = await world.run(args, { env: { ENERGY_TRON_NODE: world.sandbox.url } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(block[2]);
  });
});
