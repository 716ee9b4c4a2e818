/**
 * The Dockerfile, read as Docker reads it (no Docker engine runs where this is tested): its base pinned to
 * a release, tini as PID 1, curl and jq for hooks (pinned), busybox's wget as the HEALTHCHECK (run against a
 * live service in ensure-service-watch.test.ts), OCI labels, the secret as a mounted file first, nothing
 * installed from the registry but what the lockfile names. Its ENTRYPOINT's command is run for real, as the
 * image's user, in dockerfile-entry.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dockerfile, execForm, named, recipeLines, stages } from '../helpers/dockerfile.js';
import { manualText, repoRoot } from '../helpers/manual.js';

describe('the Dockerfile', () => {
  it('pins its base to a Node and Alpine release (or a digest), never a moving tag', () => {
    const base = /^ARG NODE_IMAGE=(\S+)$/.exec(named('ARG').find((line) => line.startsWith('ARG NODE_IMAGE='))!)![1]!;
    expect(base).toMatch(/^node:22\.\d+\.\d+-alpine3\.\d+(@sha256:[0-9a-f]{64})?$/);
    expect(named('FROM').map((line) => line.split(' ')[1])).toEqual(['${NODE_IMAGE}', '${NODE_IMAGE}']);
  });

  it('runs energy under tini (PID 1 reaps what hooks leave), with curl and jq for the hooks, each pinned', () => {
    const apk = named('RUN').filter((line) => line.startsWith('RUN apk add '));
    expect(apk).toHaveLength(1);
    const packages = apk[0]!
      .split(/\s+/)
      .slice(3)
      .filter((word) => !word.startsWith('-'));
    expect(packages.map((word) => word.split(/[=~<>]/)[0])).toEqual(['tini', 'curl', 'jq']);
    // Each held to a version line (`=~1.8`) or an exact version (`=1.8.1-r0`): never whatever is newest.
    for (const word of packages) expect(word).toMatch(/^[a-z]+=~?\d+(\.\d+)+(-r\d+)?$/);
    expect(execForm(named('ENTRYPOINT')[0]!).slice(0, 5)).toEqual([
      '/sbin/tini',
      '--',
      'node',
      '--disable-sigusr1',
      '/usr/local/bin/energy',
    ]);
  });

  it('its Node has --disable-sigusr1 (22.14 and later on the 22 line), which the ENTRYPOINT passes', () => {
    const base = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\./.exec(
      named('ARG').find((line) => line.startsWith('ARG NODE_IMAGE='))!,
    )!;
    expect(Number(base[1])).toBe(22);
    expect(Number(base[2])).toBeGreaterThanOrEqual(14);
  });

  it('installs nothing from the registry but what the lockfile names: npm ci in the build stage, no npm in the run stage', () => {
    expect(stages).toHaveLength(2);
    const [build, runStage] = stages as [string[], string[]];
    const npmIn = (stage: string[]) =>
      named('RUN', stage).filter((line) => /\bnpm\b|\bnpx\b|\byarn\b|\bpnpm\b/.test(line));
    expect(npmIn(build).filter((line) => /npm (install|i|add)\b/.test(line))).toEqual([]);
    expect(npmIn(build)[0]).toMatch(/^RUN npm ci /);
    expect(named('COPY', build)[0]).toBe('COPY package.json package-lock.json ./');
    // The run stage: the unpacked package from the build stage (no node_modules: decimal.js is not in it).
    expect(npmIn(runStage)).toEqual([]);
    expect(named('COPY', runStage)).toContain('COPY --from=build /opt/energy-cli /opt/energy-cli');
    expect(dockerfile).not.toMatch(/decimal\.js@|npm install --global/);
  });

  it('says how to pin the base by digest, and the manual says the same', () => {
    const line = 'docker build --build-arg NODE_IMAGE=node:22.17.1-alpine3.22@sha256:<digest>';
    expect(recipeLines.some((recipe) => recipe.startsWith(line))).toBe(true);
    expect(manualText()).toContain(line);
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
    for (const key of ['title', 'description', 'version', 'licenses']) {
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

  it("gives the secret to the image's user (uid 1000), and the manual's recipe is the same", () => {
    const manual = manualText();
    const secretLines = recipeLines.filter((line) => /api-secret( |$)/.test(line) && !line.startsWith('docker'));
    expect(secretLines.map((line) => line.replace(/\s+#.*$/, ''))).toEqual([
      'install -m 0600 /dev/null api-secret && $EDITOR api-secret',
      'sudo chown 1000:1000 api-secret',
    ]);
    for (const line of secretLines) expect(manual).toContain(line.replace(/\s+#.*$/, ''));
  });
});
