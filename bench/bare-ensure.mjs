// Baseline for `energy ensure` over many addresses that all have enough: the same two TRON node POSTs per
// address, eight addresses at a time over one keep-alive agent, with node:http only.
import { Agent, request } from 'node:http';

const base = new URL(process.env.ENERGY_TRON_NODE);
const agent = new Agent({ keepAlive: true });
const addresses = process.argv.slice(2);
const target = 65_000;

function post(path, address) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text)));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ address, visible: true }));
  });
}

const items = [];
let next = 0;
async function worker() {
  while (next < addresses.length) {
    const address = addresses[next++];
    const [, resource] = await Promise.all([
      post('/wallet/getaccount', address),
      post('/wallet/getaccountresource', address),
    ]);
    const available = Math.max(0, (resource.EnergyLimit ?? 0) - (resource.EnergyUsed ?? 0));
    items.push({ address, available, enough: available >= target });
  }
}
await Promise.all(Array.from({ length: 8 }, worker));
process.stdout.write(`${JSON.stringify({ items })}\n`);
agent.destroy();
