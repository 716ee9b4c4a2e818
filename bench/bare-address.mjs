// Baseline for `energy address --json`: the same one TRON node POST (getaccountresource), with node:http only.
import { agent, tronPost } from './tron-post.mjs';

const address = process.argv[2];

const resource = await tronPost('/wallet/getaccountresource', address);
const limit = resource.EnergyLimit ?? 0;
const used = resource.EnergyUsed ?? 0;
process.stdout.write(
  `${JSON.stringify({ address, activated: Object.keys(resource).length > 0, energy_available: Math.max(0, limit - used) })}\n`,
);
agent.destroy();
