/**
 * --on-event hooks as real processes: the event on stdin, credentials kept out of their environment, a
 * failure or a hang logged and bounded, never in the service's way.
 */
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventHook } from '../../../src/service/event-hook.js';
import { checkHookCommand } from '../../../src/service/hook-check.js';
import { until } from '../../helpers/e2e.js';

/** Whether a process is still there (a zombie reaped by Node is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
/**
 * The processes of a process group that still run (/proc: state and group of each). Zombies are left out:
 * an orphan's zombie waits for PID 1 to reap it, which on some machines (a container's init that never
 * reaps) is never, and `kill(-group, 0)` would count it.
 */
function liveInGroup(group: number): number {
  let live = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // Gone meanwhile.
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === group && state !== 'Z') live += 1;
  }
  return live;
}

function untilFile(file: string): Promise<string> {
  return until(`${file} is written`, () => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '') || undefined);
}

const dir = mkdtempSync(join(tmpdir(), 'energy-hook-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const node = JSON.stringify(process.execPath);

/** A hook (under a shell: it has quotes) that appends its stdin and a variable's value to `file`. */
function recorder(file: string): string {
  const script = `let t='';process.stdin.on('data',d=>t+=d).on('end',()=>require('fs').appendFileSync(${JSON.stringify(file)},JSON.stringify({stdin:t,secret:process.env.ENERGY_API_SECRET??null,path:!!process.env.PATH})+'\\n'))`;
  return `${node} -e "${script.replace(/"/g, '\\"')}"`;
}

describe('EventHook', () => {
  it('runs the command once per event with the event as one JSON line on stdin, without the API secret', async () => {
    const file = join(dir, 'events.ndjson');
    const notes: string[] = [];
    const hook = new EventHook({
      command: recorder(file),
      note: (line) => notes.push(line),
      env: { ...process.env, ENERGY_API_SECRET: 'the-secret' },
    });
    hook.emit({ event: 'order_placed', n: 1 });
    hook.emit({ event: 'low_balance', n: 2 });
    await hook.drain();
    const runs = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(runs.map((run) => JSON.parse(run.stdin)).sort((a, b) => a.n - b.n)).toEqual([
      { event: 'order_placed', n: 1 },
      { event: 'low_balance', n: 2 },
    ]);
    expect(runs.every((run) => run.secret === null && run.path === true)).toBe(true);
    expect(notes).toEqual([]);
  });

  it('a plain command runs without a shell: its words are arguments, not shell syntax', async () => {
    const notes: string[] = [];
    const hook = new EventHook({
      command: `${process.execPath} -e process.exitCode=3`,
      note: (line) => notes.push(line),
    });
    hook.emit({ event: 'cycle_failed' });
    await hook.drain();
    expect(notes).toEqual([expect.stringMatching(/for cycle_failed failed with exit status 3$/)]);
  });

  it('a missing program is logged, not thrown', async () => {
    const notes: string[] = [];
    const hook = new EventHook({ command: join(dir, 'no-such-hook'), note: (line) => notes.push(line) });
    hook.emit({ event: 'order_failed' });
    await hook.drain();
    expect(notes).toEqual([expect.stringMatching(/for order_failed was not found$/)]);
  });

  it('a hook that hangs is stopped after its timeout, with what it printed', async () => {
    const notes: string[] = [];
    const hook = new EventHook({
      command: `${node} -e "setInterval(() => {}, 1000)"`,
      note: (line) => notes.push(line),
      timeoutMs: 300,
    });
    hook.emit({ event: 'order_placed' });
    await hook.drain();
    expect(notes).toEqual([expect.stringMatching(/for order_placed was stopped after 0.3 s$/)]);
  });

  it('a failing hook is logged with what it printed, escaped', async () => {
    const notes: string[] = [];
    const hook = new EventHook({
      command: `${node} -e "console.error('webhook said \\u001b[2J no'); process.exitCode = 22"`,
      note: (line) => notes.push(line),
    });
    hook.emit({ event: 'low_balance' });
    await hook.drain();
    expect(notes).toEqual([
      expect.stringMatching(/for low_balance failed with exit status 22: webhook said \\x1b\[2J no$/),
    ]);
  });

  it('emit does not wait for the hook, and events beyond what waits are dropped and counted', async () => {
    const notes: string[] = [];
    // The cheapest program there is: the 102 that run are what is counted, not how long each takes (emit is
    // synchronous, so the loop queues all 105 before any hook can have ended, however fast it is).
    const hook = new EventHook({ command: 'true', note: (line) => notes.push(line) });
    for (let i = 0; i < 105; i += 1) expect(hook.emit({ event: 'order_placed', i })).toBeUndefined();
    await hook.drain();
    expect(notes).toEqual(['energy: on-event: 3 event(s) dropped: the hook is slower than the events']);
  });

  it('no credential variable reaches the hook: API key and secret, the TRON key, their files and commands, the state URL', async () => {
    const file = join(dir, 'env.json');
    const script = `require('fs').writeFileSync(${JSON.stringify(file)}, JSON.stringify(process.env))`;
    const hook = new EventHook({
      command: `${node} -e "${script.replace(/"/g, '\\"')}"`,
      note: () => undefined,
      env: {
        PATH: process.env.PATH,
        ENERGY_BASE_URL: 'http://127.0.0.1:8080',
        ENERGY_STATE_DIR: '/var/lib/energy',
        ENERGY_API_KEY: 'k',
        ENERGY_API_SECRET: 's',
        ENERGY_API_SECRET_FILE: '/run/secrets/s',
        ENERGY_TRON_API_KEY: 't',
        ENERGY_TRON_API_KEY_FILE: '/run/secrets/t',
        ENERGY_API_SECRET_COMMAND: 'pass show energy',
        ENERGY_STATE_URL: 'postgresql://energy:pw@db/energy',
        PGPASSWORD: 'pw',
        // Names of the user's own that say a credential, each word once.
        ENERGY_WEBHOOK_TOKEN: 'tok',
        ENERGY_SMTP_PASSWORD: 'pw2',
        ENERGY_SMTP_PASSWD: 'pw3',
        ENERGY_CLOUD_CREDENTIALS: 'c',
        ENERGY_HOOK_KEY: 'k2',
        ENERGY_HOOK_SECRET: 's2',
      },
    });
    hook.emit({ event: 'order_placed' });
    await hook.drain();
    const seen = Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object).filter(
      (name) => name.startsWith('ENERGY_') || name.startsWith('PG'),
    );
    expect(seen.sort()).toEqual(['ENERGY_BASE_URL', 'ENERGY_STATE_DIR']);
  });

  it('a hook that leaves a helper holding its output (setsid … &) is over when it exits', async () => {
    const pidFile = join(dir, 'helper.pid');
    const notes: string[] = [];
    const hook = new EventHook({
      command: `setsid sleep 120 & echo $! > ${pidFile}`,
      note: (line) => notes.push(line),
    });
    const started = Date.now();
    hook.emit({ event: 'order_placed' });
    await hook.drain();
    const helper = Number(await untilFile(pidFile));
    try {
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(alive(helper)).toBe(true);
      expect(notes).toEqual([]);
    } finally {
      process.kill(helper, 'SIGKILL');
    }
  });

  it('a hook that ignores SIGTERM is killed 2 s after its bound', async () => {
    const pidFile = join(dir, 'stubborn.pid');
    const notes: string[] = [];
    const hook = new EventHook({
      command: `trap '' TERM; echo $$ > ${pidFile}; sleep 30; sleep 30`,
      note: (line) => notes.push(line),
      timeoutMs: 300,
    });
    const started = Date.now();
    hook.emit({ event: 'low_balance' });
    await hook.drain();
    const pid = Number(await untilFile(pidFile));
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(alive(pid)).toBe(false);
    expect(notes).toEqual([expect.stringMatching(/for low_balance was stopped after 0.3 s$/)]);
  }, 15_000);

  it('a child of a timed-out hook that ignores TERM, left after the hook itself ended, is killed with its group', async () => {
    const pidFile = join(dir, 'group.pid');
    const hook = new EventHook({
      command: `echo $$ > ${pidFile}; (trap '' TERM; sleep 30) & sleep 30`,
      note: () => undefined,
      timeoutMs: 200,
    });
    hook.emit({ event: 'cycle_failed' });
    const group = Number(await untilFile(pidFile));
    const groupAlive = () => liveInGroup(group) > 0;
    try {
      // The shell and its `sleep` end at TERM; the subshell's `sleep`, ignoring TERM, is still there.
      await hook.drain();
      expect(alive(group)).toBe(false);
      expect(groupAlive()).toBe(true);
      await until("nothing of the hook's group is left", () => !groupAlive(), 3_000);
    } finally {
      if (groupAlive()) process.kill(-group, 'SIGKILL');
    }
  }, 15_000);

  it("keeps the first 2 KiB of a failing hook's output for its note, not more", async () => {
    const notes: string[] = [];
    // 2,100 blank lines, then words: past the first 2 KiB, so the note shows none of it.
    const hook = new EventHook({
      command: `${node} -e "process.stderr.write('\\n'.repeat(2100) + 'late words'); process.exitCode = 3"`,
      note: (line) => notes.push(line),
    });
    hook.emit({ event: 'cycle_failed' });
    await hook.drain();
    expect(notes).toEqual([expect.stringMatching(/for cycle_failed failed with exit status 3$/)]);
  });

  it("a shell's 127 is said in words, once", async () => {
    const notes: string[] = [];
    const hook = new EventHook({
      command: 'no-such-program-for-energy-hooks; exit 127',
      note: (line) => notes.push(line),
    });
    hook.emit({ event: 'order_failed' });
    await hook.drain();
    expect(notes).toEqual([expect.stringMatching(/for order_failed was not found \(the shell answered 127\)/)]);
  });

  it('close drops the events waiting (counted) and lets the two running end within their bound', async () => {
    const file = join(dir, 'started.txt');
    const notes: string[] = [];
    const hook = new EventHook({
      command: `echo started >> ${file}; sleep 100`,
      note: (line) => notes.push(line),
      timeoutMs: 500,
    });
    for (let i = 0; i < 12; i += 1) hook.emit({ event: 'order_placed', i });
    const started = Date.now();
    await hook.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(notes[0]).toBe('energy: on-event: 10 waiting event(s) dropped at shutdown');
    expect(notes.slice(1)).toEqual([
      expect.stringMatching(/was stopped after 0.5 s$/),
      expect.stringMatching(/was stopped after 0.5 s$/),
    ]);
    hook.emit({ event: 'order_placed', i: 12 });
    await hook.drain();
    expect(readFileSync(file, 'utf8')).toBe('started\nstarted\n');
  }, 15_000);
});

describe('checkHookCommand', () => {
  it.each([
    ['a missing path', join(dir, 'missing-hook'), /was not found$/],
    ['a program not in PATH', 'no-such-program-for-energy-hooks --flag', /was not found in PATH$/],
    ['a missing program under a shell', 'no-such-program-for-energy-hooks | cat', /was not found in PATH$/],
  ])('refuses %s (exit 2)', (_, command, message) => {
    expect(() => checkHookCommand(command, { PATH: process.env.PATH })).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringMatching(message) }),
    );
  });

  it('refuses a file that is not executable (exit 2)', () => {
    const script = join(dir, 'not-executable.sh');
    writeFileSync(script, '#!/bin/sh\n');
    chmodSync(script, 0o644);
    expect(() => checkHookCommand(script, {})).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/is not an executable file$/) }),
    );
  });

  it('refuses a folder (exit 2): it is not an executable file, though its x bit is set', () => {
    expect(() => checkHookCommand(tmpdir(), {})).toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: `--on-event ${tmpdir()}: ${tmpdir()} is not an executable file`,
      }),
    );
  });

  it.each([
    ['an executable script', () => join(dir, 'hook.sh')],
    ['a program in PATH', () => 'sh -c true'],
    ['a shell command whose program is in PATH', () => 'cat > /dev/null; true'],
    ["a shell's own first word", () => 'if true; then :; fi'],
  ])('accepts %s', (_, command) => {
    const script = join(dir, 'hook.sh');
    writeFileSync(script, '#!/bin/sh\n');
    chmodSync(script, 0o755);
    expect(() => checkHookCommand(command(), { PATH: process.env.PATH })).not.toThrow();
  });
});
