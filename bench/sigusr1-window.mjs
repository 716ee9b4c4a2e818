// The SIGUSR1 window that remains (issue 46): from a Node process's start to the first line of bin/energy.js,
// where the listener is installed, Node's own handler would open the inspector. Measured two ways on each Node
// binary given (`node bench/sigusr1-window.mjs /path/to/node …`, default this Node):
// - `first line`: performance.now() at the first line of a CommonJS script (the time origin is the process's
//   start), median and largest of 20 runs;
// - `probe`: `energy sandbox` sent SIGUSR1 at once after spawn, 20 times: how many opened the inspector,
//   without and with --disable-sigusr1 (where the Node line has it).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/energy.js', import.meta.url));
const RUNS = 20;
const dir = mkdtempSync(join(tmpdir(), 'energy-usr1-'));
const firstLine = join(dir, 'first-line.cjs');
writeFileSync(firstLine, "'use strict';\nprocess.stdout.write(String(performance.now()));\n");

function firstLineMs(node) {
  const times = [];
  for (let i = 0; i < RUNS; i++) times.push(Number(spawnSync(node, [firstLine], { encoding: 'utf8' }).stdout));
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(RUNS / 2)].toFixed(1), max: times.at(-1).toFixed(1) };
}

function probeOnce(node, flags) {
  return new Promise((resolve) => {
    const child = spawn(node, [...flags, BIN, 'sandbox', '--port', '0', '--json'], {
      env: { PATH: process.env.PATH, HOME: dir, ENERGY_CONFIG_DIR: join(dir, 'config') },
    });
    child.kill('SIGUSR1');
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('http://127.0.0.1:')) child.kill('SIGTERM');
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('close', () => {
      clearTimeout(killer);
      resolve(/Debugger listening|Starting inspector/.test(stderr));
    });
  });
}

async function probe(node, flags) {
  let opened = 0;
  for (let i = 0; i < RUNS; i++) if (await probeOnce(node, flags)) opened += 1;
  return `${opened}/${RUNS}`;
}

const nodes = process.argv.slice(2);
for (const node of nodes.length > 0 ? nodes : [process.execPath]) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const hasFlag = spawnSync(node, ['--disable-sigusr1', '-e', '0']).status === 0;
  const { median, max } = firstLineMs(node);
  const plain = await probe(node, []);
  const flagged = hasFlag ? await probe(node, ['--disable-sigusr1']) : 'no such flag';
  console.log(
    `${version}: first line at ${median} ms (largest ${max}); SIGUSR1 at spawn opened the inspector ${plain}, with --disable-sigusr1 ${flagged}`,
  );
}
