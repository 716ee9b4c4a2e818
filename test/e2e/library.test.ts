/**
 * The library as another project loads it: `require('energy-cli')` from CommonJS (Node 20.19+ loads an ES
 * module from require) and `import` from an ES module, through the package's `exports` map (the checkout
 * linked in as node_modules/energy-cli, its built dist/), each talking to the sandbox and catching the
 * library's errors by class.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { worldForSuite } from '../helpers/suite-world.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const world = worldForSuite();
let consumer: string;

beforeAll(() => {
  consumer = mkdtempSync(join(tmpdir(), 'energy-library-'));
  mkdirSync(join(consumer, 'node_modules'));
  symlinkSync(ROOT, join(consumer, 'node_modules', 'energy-cli'), 'dir');
});
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

/** The same program in both module systems: a balance, then a wrong secret caught as AuthError. */
const BODY = `
const url = new URL(process.env.ENERGY_BASE_URL);
const apiKey = process.env.ENERGY_API_KEY;
const good = new EnergyClient({ baseUrl: url, credentials: { apiKey, apiSecret: process.env.ENERGY_API_SECRET } });
const balance = await good.balance();
await good.close();
const wrong = new EnergyClient({ baseUrl: url, credentials: { apiKey, apiSecret: 'not-the-secret-0123456789' } });
let caught;
try { await wrong.balance(); } catch (error) {
  caught = { auth: error instanceof AuthError, base: error instanceof EnergyError, status: error.status };
}
await wrong.close();
const exported = Object.keys(library).sort();
process.stdout.write(JSON.stringify({ available: balance.available_trx, caught, exported }));
`;

async function runConsumer(file: string, text: string): Promise<Record<string, unknown>> {
  writeFileSync(join(consumer, file), text);
  const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: consumer, env: world.env });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('the library from another project', () => {
  it.each([
    [
      'CommonJS: require()',
      'consumer.cjs',
      `const library = require('energy-cli');\nconst { EnergyClient, AuthError, EnergyError } = library;\n(async () => {${BODY}})();`,
    ],
    [
      'an ES module: import',
      'consumer.mjs',
      `import * as library from 'energy-cli';\nimport { EnergyClient, AuthError, EnergyError } from 'energy-cli';\n${BODY}`,
    ],
  ])('works from %s, and its errors are caught by class', async (_label, file, text) => {
    const before = world.sandbox.requestCount('/v1/balance');
    const result = await runConsumer(file, text);
    expect(result.available).toMatch(/^\d+\.\d{6}$/);
    expect(result.caught).toEqual({ auth: true, base: true, status: 401 });
    // The good request and at least the refused one reached the server.
    expect(world.sandbox.requestCount('/v1/balance')).toBeGreaterThanOrEqual(before + 2);
    // What a library user catches, and nothing of the command line (its exit codes, its base class name).
    expect(result.exported).toEqual(expect.arrayContaining(['ApiError', 'EnergyError', 'NetworkError', 'UsageError']));
    expect(result.exported).not.toContain('ExitCode');
    expect(result.exported).not.toContain('CliError');
  });
});
