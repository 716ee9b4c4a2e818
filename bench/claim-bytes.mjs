// A fleet's database traffic per address, for docs/fleet.md's capacity page (issue 47 item 6): H services
// (`ensure --file … --every`) over the same N addresses that all have enough energy, through PgBouncer in
// transaction mode in front of a private PostgreSQL (bench/fleet-hosts.mjs, bench/pg-cluster.mjs), so that each
// cycle is claims, the holders of the skipped addresses, the heartbeat and the let-go, and nothing is bought.
// Measured from PgBouncer's SHOW STATS (bytes from the clients, bytes to them) over `cycles` cycles of every host
// after its first two: bytes per address listed per cycle, in and out.
//   node bench/claim-bytes.mjs [--size HOSTSxN] [--cycles N] [--bin path/to/bin/energy.js]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFleetHosts } from './fleet-hosts.mjs';
import { pgbouncerBin, startBouncer } from './pg-cluster.mjs';

export async function measureClaimBytes({ node = process.execPath, bin, hosts = 2, size = 4_000, cycles = 3 }) {
  const bouncerBin = pgbouncerBin();
  if (bouncerBin === undefined) return undefined;
  const world = await startFleetHosts({ bin, name: 'claim-bytes' });
  if (world === undefined) return undefined;
  const bouncer = startBouncer(bouncerBin, world.cluster);
  const bytes = () => {
    const row = bouncer.stats().find((r) => r.database === 'postgres');
    return { in: Number(row.total_received), out: Number(row.total_sent) };
  };
  try {
    const list = world.addresses(0x91, size);
    for (const address of list) world.sandbox.seedTronAccount(address, { energy: 65_000 });
    const file = join(world.work, 'addresses.txt');
    writeFileSync(file, `${list.join('\n')}\n`);
    const services = Array.from({ length: hosts }, (_, host) => {
      const child = spawn(
        node,
        [bin, 'ensure', '--file', file, '--energy', '65000', '--hours', '1', '--yes', '--json', '--every', '3s'],
        { env: { ...world.env(`state-${host}`), ENERGY_STATE_URL: bouncer.url }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const service = { child, lines: 0, rest: '' };
      child.stdout.on('data', (chunk) => {
        const lines = (service.rest + chunk).split('\n');
        service.rest = lines.pop();
        service.lines += lines.filter((text) => text.startsWith('{"cycle":')).length;
      });
      child.stderr.resume();
      return service;
    });
    const until = async (n) => {
      while (services.some((s) => s.lines < n)) {
        if (services.some((s) => s.child.exitCode !== null)) throw new Error('a service ended');
        await new Promise((done) => setTimeout(done, 20));
      }
    };
    await until(2);
    const before = bytes();
    const lines = services.map((s) => s.lines);
    await until(2 + cycles);
    const after = bytes();
    const counted = services.reduce((sum, s, i) => sum + s.lines - lines[i], 0);
    for (const s of services) s.child.kill('SIGTERM');
    await Promise.all(services.map((s) => new Promise((done) => s.child.on('exit', done))));
    return {
      hosts,
      size,
      cycles: counted,
      inPerAddress: (after.in - before.in) / (counted * size),
      outPerAddress: (after.out - before.out) / (counted * size),
    };
  } finally {
    bouncer.stop();
    await world.close();
  }
}

if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const bin = resolve(option('--bin') ?? fileURLToPath(new URL('../bin/energy.js', import.meta.url)));
  const [hosts, size] = (option('--size') ?? '2x4000').split('x').map(Number);
  const f = await measureClaimBytes({ bin, hosts, size, cycles: Number(option('--cycles') ?? 3) });
  if (f === undefined) console.log('no PostgreSQL or PgBouncer on this machine: not measured');
  else
    console.log(
      `${f.hosts} hosts × the same ${f.size} addresses, ${f.cycles} host cycles: ${f.inPerAddress.toFixed(1)} B in, ${f.outPerAddress.toFixed(1)} B out per address listed a host cycle`,
    );
}
