// What one host keeps in memory as its address list grows, for docs/fleet.md's capacity page (issue 47 item 6):
// one service (`ensure --file … --every`) over N addresses that all have enough energy (seeded on the sandbox's
// node), with a private PostgreSQL (bench/fleet-hosts.mjs). Alone, it claims and reads all N each cycle: more
// work than a host of a fleet that decides its share, and the same list, claim answer and cycle line to hold.
// Printed: its resident memory (VmRSS) after each cycle and its peak (VmHWM), and each cycle's duration.
//   node bench/host-memory.mjs [--sizes 1000,50000] [--cycles 3] [--bin path/to/bin/energy.js]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFleetHosts } from './fleet-hosts.mjs';

function memoryMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

export async function measureHostMemory({ node = process.execPath, bin, size, cycles = 3, say = () => {} }) {
  const world = await startFleetHosts({ bin, name: 'host-memory' });
  if (world === undefined) return undefined;
  try {
    const list = world.addresses(0x90, size);
    for (const address of list) world.sandbox.seedTronAccount(address, { energy: 65_000 });
    const file = join(world.work, 'addresses.txt');
    writeFileSync(file, `${list.join('\n')}\n`);
    const args = [bin, 'ensure', '--file', file, '--energy', '65000', '--hours', '1', '--yes', '--json'];
    const child = spawn(node, [...args, '--every', '5s'], {
      env: world.env('state'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const seen = [];
    let rest = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
    child.stdout.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines.filter((text) => text.startsWith('{"cycle":'))) {
        const cycle = JSON.parse(line);
        const ms = Date.now() - Date.parse(cycle.at);
        seen.push({ ms, items: cycle.items.length, error: cycle.error?.message, ...memoryMiB(child.pid) });
        say(`host memory: ${size} addresses, cycle ${seen.length}: ${JSON.stringify(seen.at(-1))}`);
      }
    });
    const exited = new Promise((done) => child.on('exit', done));
    while (seen.length < cycles && child.exitCode === null) await new Promise((done) => setTimeout(done, 50));
    child.kill('SIGTERM');
    await exited;
    if (seen.length < cycles) throw new Error(`the service ended: ${stderr}`);
    return { size, cycles: seen };
  } finally {
    await world.close();
  }
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const bin = resolve(option('--bin') ?? fileURLToPath(new URL('../bin/energy.js', import.meta.url)));
  const sizes = (option('--sizes') ?? '1000,50000').split(',').map(Number);
  const cycles = Number(option('--cycles') ?? 3);
  console.log('| addresses | resident memory after each cycle | peak | cycle durations |');
  console.log('| ---: | ---: | ---: | ---: |');
  for (const size of sizes) {
    const f = await measureHostMemory({ bin, size, cycles, say: (line) => console.error(line) });
    if (f === undefined) {
      console.log('no PostgreSQL on this machine: not measured');
      break;
    }
    const list = (key, digits) => f.cycles.map((c) => c[key].toFixed(digits)).join(' / ');
    console.log(
      `| ${size.toLocaleString('en-US')} | ${list('rss', 0)} MiB | ${Math.max(...f.cycles.map((c) => c.peak)).toFixed(0)} MiB | ${f.cycles.map((c) => (c.ms / 1000).toFixed(1)).join(' / ')} s |`,
    );
  }
}
