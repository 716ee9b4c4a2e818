// Baseline for `energy ensure` over many addresses that all have enough: the same one TRON node POST per
// address (getaccountresource), eight addresses at a time over one keep-alive agent, with node:http only.
import { agent, tronPost } from './tron-post.mjs';

const addresses = process.argv.slice(2);
const target = 65_000;

const items = [];
let next = 0;
async function worker() {
  while (next < addresses.length) {
    const address = addresses[next++];
    const resource = await tronPost('/wallet/getaccountresource', address);
    const available = Math.max(0, (resource.EnergyLimit ?? 0) - (resource.EnergyUsed ?? 0));
    items.push({ address, available, enough: available >= target });
  }
}
await Promise.all(Array.from({ length: 8 }, worker));
process.stdout.write(`${JSON.stringify({ items })}\n`);
agent.destroy();
