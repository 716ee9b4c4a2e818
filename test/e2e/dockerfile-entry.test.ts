/**
 * The Dockerfile's ENTRYPOINT run for real against the sandbox, as the image runs it (no Docker engine runs
 * where this is tested): as the image's user (uid 1000, through setpriv), the package as `npm pack` ships
 * it and the build stage unpacks it (no node_modules), the state folder and the secret made by the header's
 * recipe as written (its `$EDITOR` a script that writes the secret, its `sudo` the root this runs as). A
 * secret made without the recipe's chown is unreadable by that user: exit 3, nothing bought.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  linkSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, expect, it, onTestFinished } from 'vitest';
import { execForm, named, recipeLines } from '../helpers/dockerfile.js';
import { freshAddress, httpGet, metricsUrl, until } from '../helpers/e2e.js';
import { describeWhere, hasCommand } from '../helpers/machine-needs.js';
import { repoRoot } from '../helpers/manual.js';
import { tempDirForSuite, worldForSuite } from '../helpers/suite-world.js';

/** The image's user: `node` in the official Node images. */
const UID = 1000;
const asRoot = process.getuid?.() === 0;
const world = worldForSuite({ rateLimit: false });
const root = tempDirForSuite('energy-image-');

/** The image's files under `root`: the unpacked package in opt/energy-cli, the usr/local/bin links, a home. */
function buildImage(at: string): void {
  chmodSync(at, 0o755);
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8' }),
  ) as [{ files: { path: string }[] }];
  const lib = join(at, 'opt', 'energy-cli');
  for (const { path } of packed[0].files) {
    mkdirSync(dirname(join(lib, path)), { recursive: true, mode: 0o755 });
    copyFileSync(join(repoRoot, path), join(lib, path));
  }
  mkdirSync(join(at, 'usr', 'local', 'bin'), { recursive: true, mode: 0o755 });
  symlinkSync(join(lib, 'bin', 'energy.js'), join(at, 'usr', 'local', 'bin', 'energy'));
  // This Node, where uid 1000 can run it (CI's other Node lines live in a folder private to root).
  try {
    linkSync(process.execPath, join(at, 'usr', 'local', 'bin', 'node'));
  } catch {
    copyFileSync(process.execPath, join(at, 'usr', 'local', 'bin', 'node'));
  }
  mkdirSync(join(at, 'home', 'node'), { recursive: true });
  chownSync(join(at, 'home', 'node'), UID, UID);
}

/** Runs the header's secret recipe in `dir` (all of it, or without its chown), as written. */
function makeSecret(dir: string, secret: string, withChown: boolean): string {
  mkdirSync(dir, { mode: 0o755 });
  const shims = join(dir, 'shims');
  mkdirSync(shims);
  writeFileSync(join(shims, 'sudo'), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 });
  writeFileSync(join(shims, 'editor'), '#!/bin/sh\nprintf "%s\\n" "$TEST_SECRET" > "$1"\n', { mode: 0o755 });
  const lines = recipeLines
    .filter((line) => /api-secret( |$)/.test(line) && !line.startsWith('docker'))
    .filter((line) => withChown || !line.startsWith('sudo chown'));
  execFileSync('sh', ['-ec', lines.join('\n')], {
    cwd: dir,
    env: { PATH: `${shims}:${process.env.PATH ?? ''}`, EDITOR: join(shims, 'editor'), TEST_SECRET: secret },
  });
  return join(dir, 'api-secret');
}

/** The ENTRYPOINT after tini, for this machine: this Node (without the flag where it lacks it), port 0. */
function entryCommand(at: string): { launch: string[]; args: string[] } {
  const entry = execForm(named('ENTRYPOINT')[0]!).slice(2);
  const [node, flag, energy, ...args] = entry;
  expect([node, flag, energy]).toEqual(['node', '--disable-sigusr1', '/usr/local/bin/energy']);
  const flags = process.allowedNodeEnvironmentFlags.has(flag!) ? [flag!] : [];
  const launch = [`--reuid=${UID}`, `--regid=${UID}`, '--clear-groups', '--'];
  return {
    launch: ['setpriv', ...launch, join(at, 'usr/local/bin/node'), ...flags, join(at, energy!)],
    args: args.map((arg) => (arg === '0.0.0.0:9464' ? '0.0.0.0:0' : arg)),
  };
}

describeWhere('root and setpriv', asRoot && hasCommand('setpriv', ['--version']), 'the image, as its user', () => {
  beforeAll(() => buildImage(root.path), 60_000);

  function runImage(secretFile: string, address: string, state: string) {
    const { launch, args } = entryCommand(root.path);
    // The state folder as the Dockerfile's recipe for a bind mount makes it.
    const stateLine = /install -d -m 0700 -o 1000 -g 1000 /.exec(recipeLines.join('\n'))![0];
    execFileSync('sh', ['-ec', `${stateLine}${state}`]);
    const running = world.spawn([...args, address, '--energy', '65000', '--hours', '1', '--max-total', '20', '--yes'], {
      launch,
      env: {
        PATH: `${join(root.path, 'usr/local/bin')}:/usr/bin:/bin`,
        HOME: join(root.path, 'home/node'),
        ENERGY_CONFIG_DIR: undefined,
        ENERGY_API_SECRET: undefined,
        ENERGY_API_SECRET_FILE: secretFile,
        ENERGY_STATE_DIR: state,
        ENERGY_TRON_NODE: world.sandbox.url,
      },
    });
    onTestFinished(() => void running.child.kill('SIGKILL'));
    return running;
  }

  it('the recipe as written: a cycle buys once, SIGUSR1 opens nothing, SIGTERM exit 0', async () => {
    const secret = makeSecret(join(root.path, 'host'), world.sandbox.apiSecret, true);
    const address = freshAddress(31_201);
    const running = runImage(secret, address, join(root.path, 'state'));
    const url = await metricsUrl(running);
    await until('the first cycle', () => running.output().stdout.includes('"cycle":1'), 20_000);
    running.child.kill('SIGUSR1');
    expect((await httpGet(`${url}/metrics`)).status).toBe(200);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/listening on every interface, 0\.0\.0\.0/);
    expect(result.stderr).not.toMatch(/Debugger listening|Starting inspector/);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
    expect(result.stderr).not.toContain(world.sandbox.apiSecret);
    // Run by uid 1000: what it wrote in its state folder (the journal) is that user's.
    const written = readdirSync(join(root.path, 'state'), { recursive: true, encoding: 'utf8' });
    expect(written.length).toBeGreaterThan(0);
    for (const name of written) expect(statSync(join(root.path, 'state', name)).uid, name).toBe(UID);
  }, 60_000);

  it("without the recipe's chown the image's user cannot read the secret: exit 3, nothing bought", async () => {
    const secret = makeSecret(join(root.path, 'host-root-only'), world.sandbox.apiSecret, false);
    const address = freshAddress(31_202);
    const result = await runImage(secret, address, join(root.path, 'state-2')).result;
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(/cannot read api-secret from file/);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(0);
  }, 60_000);
});
