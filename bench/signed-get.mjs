// Shared by the bare baselines: one signed GET over node:http with node:crypto, nothing else.
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';

const base = new URL(process.env.ENERGY_BASE_URL);
const key = process.env.ENERGY_API_KEY;
const secret = process.env.ENERGY_API_SECRET;
export const agent = new http.Agent({ keepAlive: true });

export function signedGet(path, query = '') {
  const timestamp = Math.floor(Date.now() / 1000);
  const payload = `${timestamp}\nGET\n${path}\n${query}\n`;
  const signature = createHmac('sha256', secret).update(payload).digest('base64');
  createHash('sha256'); // the CLI hashes bodies; keep the module loaded as it would be
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: path + query,
        agent,
        headers: { authorization: `HMAC-SHA256 ${key}:${signature}`, 'x-request-timestamp': String(timestamp) },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      },
    );
    request.on('error', reject);
    request.end();
  });
}
