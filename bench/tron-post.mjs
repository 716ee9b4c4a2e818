// One TRON node POST with node:http only, for the bare baselines of `address` and `ensure`.
import { Agent, request } from 'node:http';

const base = new URL(process.env.ENERGY_TRON_NODE);
export const agent = new Agent({ keepAlive: true });

/** POST `path` with `{address, visible: true}` and the parsed JSON answer. */
export function tronPost(path, address) {
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
