/**
 * The Dockerfile, read as Docker reads it (no Docker engine runs where this is tested): its base pinned to
 * a release, tini as PID 1, curl and jq for hooks, busybox's wget as the HEALTHCHECK (run against a live
 * service in ensure-service-watch.test.ts), OCI labels, the secret as a mounted file first; and its
 * ENTRYPOINT's command run for real against the sandbox, the secret read from a file as the image reads it.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshAddress, until } from '../helpers/e2e.js';
import { repoRoot } from '../helpers/manual.js';
import { worldForSuite } from '../helpers/suite-world.js';

const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
/** The instructions, continuation lines joined, comments left out. */
const instructions = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
const named = (keyword: string) => instructions.filter((line) => line.startsWith(`${keyword} `));
const execForm = (line: string) => JSON.parse(line.slice(line.indexOf('['))) as string[];

describe('the Dockerfile', () => {
  it('pins its base to a Node and Alpine release (or a digest), never a moving tag', () => {
    const base = /^ARG NODE_IMAGE=(\S+)$/.exec(named('ARG').find((line) => line.startsWith('ARG NODE_IMAGE='))!)![1]!;
    expect(base).toMatch(/^node:22\.\d+\.\d+-alpine3\.\d+(@sha256:[0-9a-f]{64})?$/);
    expect(named('FROM').map((line) => line.split(' ')[1])).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
  });

  it('runs energy under tini (PID 1 reaps what hooks leave), with curl and jq for the hooks', () => {
    expect(named('RUN')).toContain('RUN apk add --no-cache tini curl jq');
    expect(execForm(named('ENTRYPOINT')[0]!).slice(0, 3)).toEqual(['/sbin/tini', '--', 'energy']);
  });

  it('its HEALTHCHECK is wget of /livez with a time limit (no Node started), exit 1 when unhealthy', () => {
    const check = named('HEALTHCHECK')[0]!;
    expect(check).toMatch(/--timeout=10s/);
    const [shell, flag, script] = execForm(check);
    expect([shell, flag]).toEqual(['/bin/sh', '-c']);
    expect(script).toMatch(/^wget -q -T \d+ -O \/dev\/null http:\/\/127\.0\.0\.1:9464\/livez \|\| exit 1$/);
    expect(check).not.toMatch(/node/);
  });

  it('has the OCI labels, its version the package version', () => {
    const labels = named('LABEL').join(' ');
    for (const key of ['title', 'description', 'version', 'licenses', 'source']) {
      expect(labels).toContain(`org.opencontainers.image.${key}=`);
    }
    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    expect(named('ARG')).toContain(`ARG VERSION=${version}`);
    expect(labels).toContain('org.opencontainers.image.licenses="MIT"');
  });

  it('reads the secret from a mounted file; its recipe never puts the secret in the environment', () => {
    expect(named('ENV')).toContain('ENV ENERGY_API_SECRET_FILE=/run/secrets/energy-api-secret');
    expect(dockerfile).not.toMatch(/--env-file|ENERGY_API_SECRET=/);
    expect(dockerfile).toMatch(
      /--mount type=bind,src="\$PWD\/api-secret",dst=\/run\/secrets\/energy-api-secret,readonly/,
    );
    // The bind-mounted state folder: private, owned by the image's user.
    expect(dockerfile).toMatch(/install -d -m 0700 -o 1000 -g 1000/);
  });
});

describe("the Dockerfile's ENTRYPOINT, run against the sandbox", () => {
  const world = worldForSuite({ rateLimit: false });

  it('with the secret in a file as the image reads it: a cycle, /metrics on every interface, SIGTERM exit 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-image-'));
    const secret = join(dir, 'energy-api-secret');
    writeFileSync(secret, `${world.sandbox.apiSecret}\n`);
    chmodSync(secret, 0o600);
    const state = join(dir, 'state');
    const entry = execForm(named('ENTRYPOINT')[0]!);
    expect(entry.slice(3)).toEqual(['ensure', '--every', '1m', '--json', '--metrics', '0.0.0.0:9464']);
    // tini's part is the image's; the port the system's (a test never takes a fixed one).
    const args = entry.slice(3).map((arg) => (arg === '0.0.0.0:9464' ? '0.0.0.0:0' : arg));
    const address = freshAddress(31_201);
    const running = world.spawn([...args, address, '--energy', '65000', '--hours', '1', '--max-total', '20', '--yes'], {
      env: {
        ENERGY_API_SECRET: undefined,
        ENERGY_API_SECRET_FILE: secret,
        ENERGY_STATE_DIR: state,
        ENERGY_TRON_NODE: world.sandbox.url,
      },
    });
    await until('the first cycle', () => running.output().stdout.includes('"cycle":1'), 20_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/listening on every interface, 0\.0\.0\.0/);
    expect(world.sandbox.orders().filter((order) => order.address === address)).toHaveLength(1);
    expect(result.stderr).not.toContain(world.sandbox.apiSecret);
  }, 30_000);
});
