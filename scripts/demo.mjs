#!/usr/bin/env node
// `npm run demo`: starts the sandbox on 127.0.0.1, configures a profile in a throwaway config folder, then
// runs what a new user would: time → balance → options → estimate → address → quote → order create --wait →
// address again (the rental arrived on the sandbox's TRON node) → address → ensure → address → order list.
// Every command is the real bin/energy.js, printed as you would type it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox/index.js';

const bin = fileURLToPath(new URL('../bin/energy.js', import.meta.url));
// A wallet holding 5 USDT on the sandbox's TRON node, and a recipient that already holds some.
const address = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const recipient = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const configRoot = mkdtempSync(join(tmpdir(), 'energy-demo-'));
// The journal too: the demo's orders are fake and must not join the user's real state folder.
const env = {
  ...process.env,
  ENERGY_CONFIG_DIR: join(configRoot, 'config'),
  ENERGY_STATE_DIR: join(configRoot, 'state'),
  // The compiled-code cache too (src/app/code-cache.ts): the demo leaves nothing in the home folder.
  XDG_CACHE_HOME: join(configRoot, 'cache'),
  ENERGY_PROFILE: 'demo',
};
for (const name of [
  'ENERGY_BASE_URL',
  'ENERGY_API_KEY',
  'ENERGY_API_SECRET',
  'ENERGY_TRON_NODE',
  'ENERGY_TRON_API_KEY',
])
  delete env[name];

const bold = process.stdout.isTTY && !process.env.NO_COLOR ? (text) => `\x1b[1m${text}\x1b[22m` : (text) => text;

function energy(args, { input, shown } = {}) {
  console.log(`\n${bold(`$ ${shown ?? `energy ${args.join(' ')}`}`)}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'inherit', 'inherit'],
    });
    if (input !== undefined) child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`energy ${args.join(' ')} exited with ${code}`)),
    );
  });
}

const sandbox = await startSandbox({
  port: 0,
  tronAccounts: { [address]: { usdt: 5_000_000n }, [recipient]: { usdt: 1n } },
});
console.log(`Sandbox listening on ${sandbox.url} (fake TRX; nothing leaves this machine).`);
try {
  await energy(['config', 'set', 'base-url', sandbox.url]);
  await energy(['config', 'set', 'api-key', sandbox.apiKey]);
  // The secret goes in through stdin, never the command line.
  await energy(['config', 'set', 'api-secret'], {
    input: sandbox.apiSecret,
    shown: 'printf %s "$ENERGY_SECRET" | energy config set api-secret',
  });
  // The sandbox is a TRON node too (/wallet/...): it shows its own orders' energy on chain.
  await energy(['config', 'set', 'tron-node', sandbox.url]);
  await energy(['config', 'list']);
  await energy(['time']);
  await energy(['balance']);
  await energy(['options']);
  await energy(['estimate', 'transfer', '--from', address, '--to', recipient, '--amount', '1000000']);
  await energy(['address', address]);
  await energy(['quote', address, '--energy', '65000', '--hours', '1']);
  await energy([
    'order',
    'create',
    address,
    '--energy',
    '65000',
    '--hours',
    '1',
    '--max-total',
    '10',
    '--yes',
    '--wait',
  ]);
  await energy(['address', address]);
  // Keep both supplied: the first already has enough, only the second is bought for, and confirmed on chain.
  await energy(['address', recipient]);
  await energy([
    'ensure',
    address,
    recipient,
    '--energy',
    '65000',
    '--hours',
    '1',
    '--max-total',
    '10',
    '--yes',
    '--wait',
  ]);
  await energy(['address', recipient]);
  await energy(['order', 'list']);
  await energy(['--json', 'balance']);
  console.log('\nDemo done. Run `node bin/energy.js sandbox` to keep a sandbox running and try more.');
} finally {
  await sandbox.close();
  rmSync(configRoot, { recursive: true, force: true });
}
