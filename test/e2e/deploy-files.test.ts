/**
 * The operations files shipped in deploy/, checked by their own tools (issue 31): the systemd units by
 * `systemd-analyze verify` and `systemd-analyze security --offline=true` (at most 2.5), the alert rules by
 * `promtool check rules` and `promtool test rules` (a dead service, one that never succeeded, …), and the
 * health check's command run as the timer runs it, against a service that is healthy, unhealthy or frozen,
 * with a stand-in systemctl that records what it was asked. Where a tool is missing the suite is skipped by
 * name, and fails under ENERGY_TESTS_REQUIRE_ALL=1 (CI installs them: .ci/run).
 */
import { execFile, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { until } from '../helpers/e2e.js';
import { describeWhere, hasCommand } from '../helpers/machine-needs.js';
import { manualText, repoRoot } from '../helpers/manual.js';
import { worldForSuite } from '../helpers/suite-world.js';

const SYSTEMD = join(repoRoot, 'deploy', 'systemd');
const PROMETHEUS = join(repoRoot, 'deploy', 'prometheus');
const UNITS = ['energy-ensure.service', 'energy-ensure-health.service', 'energy-ensure-health.timer'];
const unitText = (name: string) => readFileSync(join(SYSTEMD, name), 'utf8');
/** A unit's value for `key` (the last line that sets it), or undefined. */
const value = (text: string, key: string) => [...text.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].at(-1)?.[1];

function run(
  command: string,
  args: string[],
  cwd?: string,
  env?: NodeJS.ProcessEnv,
): { status: number | null; output: string } {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: env && { ...process.env, ...env } });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

/** The units copied to a temporary folder, ExecStart's /usr/local/bin/energy pointing at this checkout's. */
function unitsHere(): string {
  const dir = mkdtempSync(join(tmpdir(), 'energy-units-'));
  for (const name of UNITS) {
    writeFileSync(join(dir, name), unitText(name).replaceAll('/usr/local/bin/energy ', `${BIN} `));
  }
  return dir;
}

describe('the shipped systemd units, as files', () => {
  const service = unitText('energy-ensure.service');
  const health = unitText('energy-ensure-health.service');

  it('the service: a user made for it, its state folder, the secret as a credential, restarts as the contract says', () => {
    expect(value(service, 'DynamicUser')).toBe('yes');
    expect(value(service, 'StateDirectory')).toBe('energy-ensure');
    expect(value(service, 'StateDirectoryMode')).toBe('0700');
    expect(service).toMatch(/^LoadCredential=energy-api-secret:/m);
    expect(service).toMatch(/^Environment=ENERGY_API_SECRET_FILE=%d\/energy-api-secret$/m);
    expect(service).not.toMatch(/^Environment=ENERGY_API_SECRET=/m);
    expect(value(service, 'ExecStart')).toMatch(/^\/usr\/local\/bin\/energy ensure .* --every 1m .*--metrics 9464$/);
    expect(value(service, 'Restart')).toBe('on-failure');
    expect(value(service, 'RestartPreventExitStatus')?.split(/\s+/).sort()).toEqual(['2', '3']);
    // V8's JIT writes executable memory: this line would stop Node.
    expect(service).not.toMatch(/^MemoryDenyWriteExecute=/m);
  });

  it('the health check: asks /livez (a failing service, or one at --max-spend, is alive: a restart cures only a stuck one), try-restart (never starts a stopped unit), curl with a time limit, a start timeout', () => {
    const exec = value(health, 'ExecStart')!;
    expect(exec).toMatch(/^\/usr\/bin\/curl -fsS --max-time \d+ -o \/dev\/null http:\/\/127\.0\.0\.1:9464\/livez$/);
    const restart = value(health, 'ExecStopPost')!;
    expect(restart).toMatch(/systemctl --no-block try-restart energy-ensure\.service'$/);
    expect(`${exec}\n${restart}`).not.toMatch(/systemctl (--\S+ )*(restart|start) /);
    const maxTime = Number(/--max-time (\d+)/.exec(exec)?.[1]);
    const startTimeout = Number(value(health, 'TimeoutStartSec'));
    expect(maxTime).toBeGreaterThan(0);
    expect(startTimeout).toBeGreaterThan(maxTime);
    expect(value(health, 'Type')).toBe('oneshot');
    expect(value(unitText('energy-ensure-health.timer'), 'OnUnitActiveSec')).toBe('5min');
  });

  it('the health check runs as a user made for it; the one privileged command ("+") is the restart', () => {
    expect(value(health, 'DynamicUser')).toBe('yes');
    expect(value(health, 'User')).toBeUndefined();
    expect(value(health, 'CapabilityBoundingSet')).toBe('');
    // Exec lines whose command runs with full privileges ("+", "!", "!!"): only ExecStopPost, only systemctl.
    const privileged = [...health.matchAll(/^(Exec\w+)=[-@:]*[+!]/gm)].map((match) => match[1]);
    expect(privileged).toEqual(['ExecStopPost']);
    expect(value(health, 'ExecStopPost')).toMatch(
      /^\+\/bin\/sh -c 'test "\$\$\{SERVICE_RESULT\}" = success \|\| exec systemctl /,
    );
  });
});

describe("the service unit's ExecStart, run against the sandbox as the unit runs it", () => {
  const world = worldForSuite({ rateLimit: false });

  it('the secret from its credential file, the state in its own folder: a cycle buys, SIGTERM ends it with 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-unit-'));
    const secret = join(dir, 'energy-api-secret');
    writeFileSync(secret, `${world.sandbox.apiSecret}\n`);
    chmodSync(secret, 0o600);
    const [program, ...args] = value(unitText('energy-ensure.service'), 'ExecStart')!.split(' ');
    expect(program).toBe('/usr/local/bin/energy');
    // The port the system's: a test never takes a fixed one.
    const running = world.spawn(
      args.map((arg) => (arg === '9464' ? '0' : arg)),
      {
        env: {
          ENERGY_API_SECRET: undefined,
          ENERGY_API_SECRET_FILE: secret,
          ENERGY_STATE_DIR: join(dir, 'state'),
          ENERGY_TRON_NODE: world.sandbox.url,
        },
      },
    );
    await until('the first cycle', () => running.output().stdout.includes('"cycle":1'), 20_000);
    running.child.kill('SIGTERM');
    const result = await running.result;
    expect(result.code, result.stderr).toBe(0);
    expect(world.sandbox.orders().map((order) => order.address)).toEqual(['TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7']);
  }, 30_000);
});

describe('the manual shows the shipped files', () => {
  const manual = manualText();

  it.each(UNITS)('deploy/systemd/%s, verbatim, in an ini block', (name) => {
    expect(manual).toContain(`\`deploy/systemd/${name}\`:\n\n\`\`\`ini\n${unitText(name)}\`\`\``);
  });

  it('no recipe in it restarts or starts the unit from a health check (only try-restart)', () => {
    expect(manual).not.toMatch(/systemctl (--\S+ )*(restart|start) energy-ensure/);
    expect(manual).toMatch(/systemctl --no-block try-restart energy-ensure\.service/);
  });

  it('names the alert rules it ships, each of them', () => {
    const rules = readFileSync(join(PROMETHEUS, 'energy-alerts.yml'), 'utf8');
    const alerts = [...rules.matchAll(/^\s+- alert: (\w+)$/gm)].map((match) => match[1]!);
    expect(alerts).toHaveLength(7);
    for (const alert of alerts) expect(manual).toContain(`| \`${alert}\` |`);
  });
});

describeWhere('systemd-analyze', hasCommand('systemd-analyze', ['--version']), 'systemd-analyze on the units', () => {
  it('systemd-analyze verify finds nothing to say about the three units', () => {
    const dir = unitsHere();
    // Documentation= names man pages (man:energy-ensure(1)), which verify looks up: the build's, as a global
    // install links them (<prefix>/share/man/man1).
    mkdirSync(join(dir, 'man'));
    symlinkSync(join(repoRoot, 'dist/man'), join(dir, 'man', 'man1'));
    const env = { MANPATH: join(dir, 'man') };
    const result = run('systemd-analyze', ['verify', ...UNITS.map((name) => join(dir, name))], dir, env);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it('systemd-analyze verify does complain about a broken unit (the check can fail)', () => {
    const dir = unitsHere();
    writeFileSync(join(dir, 'energy-ensure.service'), `${unitText('energy-ensure.service')}\nRestart=sometimes\n`);
    const result = run('systemd-analyze', ['verify', join(dir, 'energy-ensure.service')], dir);
    expect(result.output).toMatch(/Restart/);
  });

  it.each(['energy-ensure.service', 'energy-ensure-health.service'])(
    'systemd-analyze security --offline=true scores %s at most 2.5',
    (name) => {
      const dir = unitsHere();
      const result = run('systemd-analyze', ['security', '--offline=true', '--no-pager', join(dir, name)], dir);
      const score = Number(
        new RegExp(`Overall exposure level for ${name.replace('.', '\\.')}: (\\d+\\.\\d)`).exec(result.output)?.[1],
      );
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThanOrEqual(2.5);
    },
  );

  it('systemd-analyze security scores the health check as root (its old form) above 2.5: the check can fail', () => {
    const dir = unitsHere();
    const asRoot = unitText('energy-ensure-health.service')
      .replace(/^DynamicUser=yes$/m, '')
      .replace(/^CapabilityBoundingSet=$/m, '');
    writeFileSync(join(dir, 'energy-ensure-health.service'), asRoot);
    const result = run(
      'systemd-analyze',
      ['security', '--offline=true', '--no-pager', join(dir, 'energy-ensure-health.service')],
      dir,
    );
    const score = Number(
      /Overall exposure level for energy-ensure-health\.service: (\d+\.\d)/.exec(result.output)?.[1],
    );
    expect(score).toBeGreaterThan(2.5);
  });
});

describeWhere('promtool', hasCommand('promtool', ['--version']), 'promtool on the alert rules', () => {
  it('promtool check rules accepts them', () => {
    const result = run('promtool', ['check', 'rules', join(PROMETHEUS, 'energy-alerts.yml')]);
    expect(result.output).toMatch(/SUCCESS: 7 rules found/);
    expect(result.status).toBe(0);
  });

  it('promtool test rules passes every case (a dead service, one never succeeding, …)', () => {
    const result = run('promtool', ['test', 'rules', 'energy-alerts.test.yml'], PROMETHEUS);
    expect(result.output).toMatch(/SUCCESS/);
    expect(result.status).toBe(0);
  });

  it("the old README alert (no 'up', no absent) fails the dead-service case: the tests can fail", () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-rules-'));
    const rules = readFileSync(join(PROMETHEUS, 'energy-alerts.yml'), 'utf8').replace(
      'expr: up{job="energy-ensure"} == 0 or absent(up{job="energy-ensure"})',
      'expr: time() - energy_ensure_last_success_timestamp_seconds > 600',
    );
    expect(rules).not.toContain('absent(up');
    writeFileSync(join(dir, 'energy-alerts.yml'), rules);
    copyFileSync(join(PROMETHEUS, 'energy-alerts.test.yml'), join(dir, 'energy-alerts.test.yml'));
    const result = run('promtool', ['test', 'rules', 'energy-alerts.test.yml'], dir);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/EnergyEnsureDown/);
  });
});

describeWhere('curl', hasCommand('curl', ['--version']), "the health check's command, run as the timer runs it", () => {
  let server: Server;
  let answer: 'ok' | 'unhealthy' | 'frozen' = 'ok';
  let port = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      if (answer === 'frozen') return; // Accepts, never answers: a SIGSTOPped service.
      response.writeHead(answer === 'ok' ? 200 : 503, { 'content-type': 'application/json' }).end('{}\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /**
   * Runs the unit as systemd does: ExecStart (curl, its port this server's, its --max-time 1 s), then
   * ExecStopPost with $SERVICE_RESULT set as systemd sets it ("success", or "exit-code" when ExecStart
   * failed), its "+" taken off and its "$$" made "$" (systemd's own unescaping): systemctl's arguments, and
   * how long it took.
   */
  async function check(): Promise<{ systemctl: string[]; ms: number }> {
    const dir = mkdtempSync(join(tmpdir(), 'energy-health-'));
    const log = join(dir, 'systemctl.args');
    writeFileSync(join(dir, 'systemctl'), `#!/bin/sh\nprintf '%s\\n' "$*" >> ${log}\n`);
    chmodSync(join(dir, 'systemctl'), 0o755);
    const unit = unitText('energy-ensure-health.service');
    const env = { PATH: `${dir}:/usr/bin:/bin` };
    const [curl, ...args] = value(unit, 'ExecStart')!
      .replace('127.0.0.1:9464', `127.0.0.1:${port}`)
      .replace(/--max-time \d+/, '--max-time 1')
      .split(' ');
    const started = Date.now();
    const failed = await new Promise<boolean>((resolve) =>
      execFile(curl!, args, { env }, (error) => resolve(error !== null)),
    );
    const [program, flag, script] = /^\+(\S+) (-c) '(.*)'$/.exec(value(unit, 'ExecStopPost')!)!.slice(1) as [
      string,
      string,
      string,
    ];
    await new Promise<void>((resolve) =>
      execFile(
        program,
        [flag, script.replaceAll('$$', '$')],
        { env: { ...env, SERVICE_RESULT: failed ? 'exit-code' : 'success' } },
        () => resolve(),
      ),
    );
    return {
      systemctl: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [],
      ms: Date.now() - started,
    };
  }

  it('healthy: nothing is restarted', async () => {
    answer = 'ok';
    expect((await check()).systemctl).toEqual([]);
  });

  it('unhealthy (503): try-restart, which leaves a stopped unit stopped', async () => {
    answer = 'unhealthy';
    expect((await check()).systemctl).toEqual(['--no-block try-restart energy-ensure.service']);
  });

  it('frozen (accepts, never answers): curl gives up at its time limit, then try-restart', async () => {
    answer = 'frozen';
    const { systemctl, ms } = await check();
    expect(systemctl).toEqual(['--no-block try-restart energy-ensure.service']);
    expect(ms).toBeLessThan(5_000);
  });
});
