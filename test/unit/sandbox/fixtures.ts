/** Shared set-up of the sandbox unit tests. */
import { afterEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { testAddress } from './addresses.js';

/** Returns `start()`, whose sandbox is closed after each test. */
export function useSandbox(): (options?: SandboxOptions) => Promise<Sandbox> {
  let sandbox: Sandbox | undefined;
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  return async (options = {}) => {
    sandbox = await startSandbox(options);
    return sandbox;
  };
}

/** A valid order creation body: 65 000 × 0.000040 + 1.100000 activation = 3.700000. */
export function orderRequest(overrides: Record<string, unknown> = {}) {
  return {
    client_request_id: 'req-1',
    address: testAddress(1),
    energy: 65_000,
    duration_hours: 1,
    expected_total_trx: '3.700000',
    ...overrides,
  };
}
