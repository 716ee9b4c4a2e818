// The start-up floor (issue 48): `energy balance --json`'s work with nothing but node:http and node:crypto,
// as CommonJS (an ES module would time Node's ES module loader, ~40 ms of CPU on Node 22-26, as if it were
// ours). One signed GET of /v1/balance, its JSON printed. Settings from ENERGY_BASE_URL, ENERGY_API_KEY and
// ENERGY_API_SECRET (the bench passes the profile's).
'use strict';
const { createHash, createHmac } = require('node:crypto');
const http = require('node:http');

const base = new URL(process.env.ENERGY_BASE_URL);
const path = process.argv[2] ?? '/v1/balance';
const timestamp = Math.floor(Date.now() / 1000);
const signature = createHmac('sha256', process.env.ENERGY_API_SECRET)
  .update(`${timestamp}\nGET\n${path}\n\n`)
  .digest('base64');
createHash('sha256'); // the CLI hashes bodies; keep the hash loaded as it would be
const request = http.request(
  {
    host: base.hostname,
    port: base.port,
    path,
    headers: {
      authorization: `HMAC-SHA256 ${process.env.ENERGY_API_KEY}:${signature}`,
      'x-request-timestamp': String(timestamp),
    },
  },
  (response) => {
    const chunks = [];
    response.on('data', (chunk) => chunks.push(chunk));
    response.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (response.statusCode !== 200) {
        process.stderr.write(`${response.statusCode} ${JSON.stringify(body)}\n`);
        process.exitCode = 1;
        return;
      }
      process.stdout.write(`${JSON.stringify(body)}\n`);
    });
  },
);
request.on('error', (error) => {
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
});
request.end();
