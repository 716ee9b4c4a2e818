/**
 * --on-event hooks as real processes: the event on stdin, credentials kept out of their environment, a
 * failure or a hang logged and bounded, never in the service's way.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventHook } from '../../../src/service/event-hook.js';

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
});
