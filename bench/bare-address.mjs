// Baseline for `energy address --json`: the same two TRON node POSTs, side by side, with node:http only.
import { Agent, request } from 'node:http';

const base = new URL(process.env.ENERGY_TRON_NODE);
const agent = new Agent({ keepAlive: true });
const address = process.argv[2];

function post(path) {
  const body = JSON.stringify({ address, visible: true });
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
    req.end(body);
  });
}

const [account, resource] = await Promise.all([post('/wallet/getaccount'), post('/wallet/getaccountresource')]);
const limit = resource.EnergyLimit ?? 0;
const used = resource.EnergyUsed ?? 0;
process.stdout.write(
  `${JSON.stringify({ address, activated: Object.keys(account).length > 0, energy_available: Math.max(0, limit - used) })}\n`,
);
agent.destroy();
