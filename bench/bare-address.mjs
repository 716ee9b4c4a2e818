// Baseline for `energy address --json`: the same two TRON node POSTs, side by side, with node:http only.
import { agent, tronPost } from './tron-post.mjs';

const address = process.argv[2];

const [account, resource] = await Promise.all([
  tronPost('/wallet/getaccount', address),
  tronPost('/wallet/getaccountresource', address),
]);
const limit = resource.EnergyLimit ?? 0;
const used = resource.EnergyUsed ?? 0;
process.stdout.write(
  `${JSON.stringify({ address, activated: Object.keys(account).length > 0, energy_available: Math.max(0, limit - used) })}\n`,
);
agent.destroy();
