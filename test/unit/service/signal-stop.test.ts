/**
 * The stop switch of `ensure --every`, on an emitter standing in for the process: the first SIGTERM or
 * SIGINT asks for a stop and cuts short the wait between cycles; a second exits at once with the signal's
 * status through the entry's exit; the entry's own handlers are set aside and put back.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { stopOnSignals } from '../../../src/service/signal-stop.js';

function switchOn() {
  const source = new EventEmitter();
  const entry = () => undefined;
  source.on('SIGTERM', entry);
  const notes: string[] = [];
  const exits: number[] = [];
  const stop = stopOnSignals({ note: (line) => notes.push(line), exit: (code) => exits.push(code), source });
  return { source, entry, notes, exits, stop };
}

describe('stopOnSignals', () => {
  it('a signal cuts short the wait between cycles (an hour here)', async () => {
    const { source, stop } = switchOn();
    const waited = stop.wait(3_600_000);
    expect(stop.requested).toBe(false);
    source.emit('SIGTERM', 'SIGTERM');
    expect(stop.requested).toBe(true);
    const outcome = await Promise.race([
      waited.then(() => 'woken'),
      new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting')),
    ]);
    expect(outcome).toBe('woken');
    stop.restore();
  });

  it('a wait asked for after the stop does not wait', async () => {
    const { source, stop } = switchOn();
    source.emit('SIGINT', 'SIGINT');
    await stop.wait(3_600_000);
    expect(stop.requested).toBe(true);
    stop.restore();
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ])('a second %s exits at once with %i, saying so', (name, code) => {
    const { source, notes, exits, stop } = switchOn();
    source.emit(name, name);
    expect(exits).toEqual([]);
    expect(notes).toEqual([`energy: ${name}: stopping after this cycle (send it again to stop at once)`]);
    source.emit(name, name);
    expect(exits).toEqual([code]);
    expect(notes[1]).toMatch(new RegExp(`${name} again: stopping now`));
    stop.restore();
  });

  it("sets the entry's handlers aside while it runs, and puts them back", () => {
    const { source, entry, stop } = switchOn();
    expect(source.listeners('SIGTERM')).not.toContain(entry);
    stop.restore();
    expect(source.listeners('SIGTERM')).toEqual([entry]);
    expect(source.listenerCount('SIGINT')).toBe(0);
  });

  it('a signal the entry took before the switch existed (its interrupt aborted) starts it stopped, and says so', async () => {
    const source = new EventEmitter();
    const earlier = new AbortController();
    earlier.abort('SIGTERM');
    const notes: string[] = [];
    const stop = stopOnSignals({
      note: (line) => notes.push(line),
      exit: () => undefined,
      source,
      earlier: earlier.signal,
    });
    expect(stop.requested).toBe(true);
    expect(notes).toEqual(['energy: SIGTERM while starting: stopping before the first cycle']);
    await stop.wait(3_600_000);
    stop.restore();
  });

  it('an interrupt not aborted leaves it running', () => {
    const stop = stopOnSignals({
      note: () => undefined,
      exit: () => undefined,
      source: new EventEmitter(),
      earlier: new AbortController().signal,
    });
    expect(stop.requested).toBe(false);
    stop.restore();
  });

  it("never leaves a signal without a listener while it swaps (Node would close the signal's watcher)", () => {
    const source = new EventEmitter();
    source.on('SIGTERM', () => undefined);
    source.on('SIGINT', () => undefined);
    const counts: number[] = [];
    source.on('removeListener', (name: string) => {
      if (name === 'SIGTERM' || name === 'SIGINT') counts.push(source.listenerCount(name));
    });
    const stop = stopOnSignals({ note: () => undefined, exit: () => undefined, source });
    stop.restore();
    expect(counts.length).toBe(4);
    expect(counts.every((count) => count > 0)).toBe(true);
  });
});
