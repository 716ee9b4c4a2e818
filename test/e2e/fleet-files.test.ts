/**
 * docs/fleet.md's operations text, checked by what can check it here (no Docker engine runs where this is
 * tested; state-store-fleet.test.ts runs the services' commands): the secret files' lines run as written (their
 * `sudo` the root this runs as, their `$EDITOR` a script), leaving each file with the owner the container
 * that reads it runs as; the compose YAML read by a YAML parser and checked for what the fleet needs (the
 * TRON node, the password file and secret among the service's secrets, a restart policy, the database's health
 * check as the start condition); the systemd drop-in that passes the password file as a credential, checked
 * by `systemd-analyze verify` beside the shipped unit.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BIN } from '../helpers/cli.js';
import { describeWhere, hasCommand } from '../helpers/machine-needs.js';
import { readPage, repoRoot } from '../helpers/manual.js';

const section = readPage('docs/fleet.md').split('## An example fleet (compose)')[1]!.split('## What remains')[0]!;
const blocks = (lang: string) =>
  [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
const shLines = blocks('sh')[0]!.trim().split('\n');

interface Service {
  environment?: Record<string, string>;
  secrets?: string[];
  depends_on?: Record<string, { condition?: string }>;
  restart?: string;
  healthcheck?: { test: string[] };
  command?: string[];
}
const compose = parse(blocks('yaml')[0]!) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
};
const energyServices = Object.entries(compose.services).filter(([name]) => name.startsWith('energy-'));
/** The uid each line of the recipe gives its files: `sudo chown <uid>:<gid> <files…>`. */
const chowned = new Map(
  shLines
    .filter((line) => line.startsWith('sudo chown '))
    .flatMap((line) => {
      const [, owner, files] = /^sudo chown (\d+):\d+ ([^#]*)/.exec(line)!;
      return files!
        .trim()
        .split(/\s+/)
        .map((file) => [file, Number(owner)] as const);
    }),
);

describe("the compose example's YAML", () => {
  it('has two energy services, each with the TRON node, its password file and secret among its secrets', () => {
    expect(energyServices).toHaveLength(2);
    for (const [name, service] of energyServices) {
      const env = service.environment!;
      expect(env.ENERGY_TRON_NODE, name).toMatch(/^https:\/\//);
      expect(env.ENERGY_STATE_URL, name).toMatch(/^postgresql:\/\//);
      for (const variable of ['PGPASSFILE', 'ENERGY_API_SECRET_FILE']) {
        const secret = /^\/run\/secrets\/(.+)$/.exec(env[variable]!)?.[1];
        expect(service.secrets, `${name} ${variable}`).toContain(secret);
        expect(compose.secrets[secret!], secret).toBeDefined();
      }
    }
  });

  it('restarts a service that exited, and starts the services once the database passes its health check', () => {
    const restart = /^(no|always|unless-stopped|on-failure(:\d+)?)$/;
    expect(compose.services.db!.healthcheck!.test).toContain('pg_isready');
    expect(compose.services.db!.restart).toMatch(restart);
    for (const [name, service] of energyServices) {
      expect(service.restart, name).toMatch(restart);
      expect(service.depends_on, name).toEqual({ db: { condition: 'service_healthy' } });
    }
  });

  it("makes every file the energy services mount uid 1000's (the image's user), the database's uid 999's", () => {
    const mounted = new Set(energyServices.flatMap(([, service]) => service.secrets!));
    for (const secret of mounted)
      expect(chowned.get(compose.secrets[secret]!.file.replace(/^\.\//, '')), secret).toBe(1000);
    for (const secret of compose.services.db!.secrets as unknown as string[])
      expect(chowned.get(compose.secrets[secret]!.file.replace(/^\.\//, '')), secret).toBe(999);
  });
});

describeWhere('root', process.getuid?.() === 0, 'the secret files made by the lines as written', () => {
  it("leaves each file 0600 and its reader's: pgpass and the API secret uid 1000's, the database password 999's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-fleet-files-'));
    const shims = join(dir, 'shims');
    mkdirSync(shims);
    writeFileSync(join(shims, 'sudo'), '#!/bin/sh\nexec "$@"\n', { mode: 0o755 });
    writeFileSync(join(shims, 'editor'), '#!/bin/sh\nprintf "written\\n" > "$1"\n', { mode: 0o755 });
    execFileSync('sh', ['-ec', shLines.join('\n')], {
      cwd: dir,
      env: { PATH: `${shims}:${process.env.PATH ?? ''}`, EDITOR: join(shims, 'editor') },
    });
    const owner = (file: string) => {
      const stat = statSync(join(dir, file));
      return { uid: stat.uid, mode: (stat.mode & 0o777).toString(8), text: readFileSync(join(dir, file), 'utf8') };
    };
    expect(owner('pgpass')).toEqual({ uid: 1000, mode: '600', text: 'written\n' });
    expect(owner('energy-api-secret')).toEqual({ uid: 1000, mode: '600', text: 'written\n' });
    expect(owner('pg-password')).toEqual({ uid: 999, mode: '600', text: 'written\n' });
  });
});

describeWhere('systemd-analyze', hasCommand('systemd-analyze', ['--version']), 'the password-file drop-in', () => {
  const dropIn = blocks('ini')[0]!;
  /** The shipped unit in a temporary folder (ExecStart at this checkout's bin), with `conf` as its drop-in. */
  function verify(conf: string) {
    const dir = mkdtempSync(join(tmpdir(), 'energy-dropin-'));
    const unit = readFileSync(join(repoRoot, 'deploy/systemd/energy-ensure.service'), 'utf8');
    writeFileSync(join(dir, 'energy-ensure.service'), unit.replaceAll('/usr/local/bin/energy ', `${BIN} `));
    mkdirSync(join(dir, 'energy-ensure.service.d'));
    writeFileSync(join(dir, 'energy-ensure.service.d', 'state.conf'), conf);
    // Documentation= names man pages, which verify looks up: the build's, where a global install links them.
    mkdirSync(join(dir, 'man'));
    symlinkSync(join(repoRoot, 'dist/man'), join(dir, 'man', 'man1'));
    const result = spawnSync('systemd-analyze', ['verify', join(dir, 'energy-ensure.service')], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, MANPATH: join(dir, 'man'), SYSTEMD_UNIT_PATH: `${dir}:` },
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
  }

  it('passes the password file as a credential, PGPASSFILE naming its copy; verify has nothing to say', () => {
    expect(dropIn).toMatch(/^LoadCredential=pgpass:\/etc\/energy-ensure\/pgpass$/m);
    expect(dropIn).toMatch(/^Environment=PGPASSFILE=%d\/pgpass$/m);
    expect(verify(dropIn)).toEqual({ status: 0, output: '' });
  });

  it('verify reads the drop-in (a broken line in it is reported: the check can fail)', () => {
    expect(verify(`${dropIn}Restart=sometimes\n`).output).toMatch(/state\.conf:\d+: .*sometimes/);
  });
});
