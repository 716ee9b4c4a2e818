/** A local server implementing the whole Energy API v1, for trying the CLI and for end-to-end tests. */
export { startSandbox } from './start-sandbox.js';
export { SANDBOX_CANCELLED_ADDRESS, SANDBOX_FAILING_ADDRESS, SANDBOX_UNDELIVERABLE_ADDRESS } from './catalog.js';
export type { Sandbox, SandboxOptions } from './types.js';
export { USDT_TRANSFER_ENERGY, USDT_TRANSFER_ENERGY_NEW_HOLDER } from './energy-figures.js';
