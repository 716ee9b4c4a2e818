/**
 * The service loop of `ensure --every`, on a fake clock with a fake stop switch: cycles start `every` apart
 * (with jitter) counted from the start of the cycle before, however long it took; a failure of the moment
 * (any API answer, a 400 included) is reported and the next cycle runs; a usage error of our own, a
 * credential failure, a bug or a stop ends the service.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, AuthError, NetworkError, UsageError } from '../../../src/domain/errors.js';
import { ContextualError, InterruptedError, StoppedBeforeOrderingError } from '../../../src/domain/cli-errors.js';
import type { EnsureItem } from '../../../src/ensure/ensure-types.js';
import { endsService, runService, type CycleReport } from '../../../src/service/service-loop.js';
import { fakeClock } from '../../helpers/fake-clock.js';

interface Loop {
  reports: CycleReport[];
  notes: string[];
  /** What each wait between cycles was asked for, in ms. */
  waits: number[];
  cycles: number;
}

/**
 * Runs the loop for `cycles` cycles (a stop is asked for during the last wait, or during the cycle with
 * `stopIn: 'cycle'`); each cycle takes `cycleMs` on the fake clock, or throws what `fail(n)` returns.
 */
async function loop(options: {
  everyMs: number;
  cycles: number;
  cycleMs?: number;
  random?: number;
  fail?: (cycle: number) => unknown;
  stopIn?: 'cycle' | 'wait';
}): Promise<Loop & { result: Promise<number> }> {
  const clock = fakeClock(1_800_000_000_000);
  let requested = options.cycles === 0;
  const run: Loop = { reports: [], notes: [], waits: [], cycles: 0 };
  const result = runService({
    everyMs: options.everyMs,
    nowMs: clock.now,
    random: () => options.random ?? 0.5,
    note: (line) => run.notes.push(line),
    report: async (report) => {
      run.reports.push(report);
    },
    cycle: async () => {
      run.cycles += 1;
      clock.advance(options.cycleMs ?? 0);
      if (options.stopIn === 'cycle' && run.cycles === options.cycles) requested = true;
      const failure = options.fail?.(run.cycles);
      if (failure !== undefined) throw failure;
      return [] as EnsureItem[];
    },
    stop: {
      get requested() {
        return requested;
      },
      wait: async (ms) => {
        run.waits.push(ms);
        clock.advance(ms);
        if (run.cycles >= options.cycles) requested = true;
      },
    },
  });
  await result.catch(() => undefined);
  return { ...run, result };
}

describe('the service loop', () => {
  it('spaces cycles from the start of the one before: a 400 ms cycle every 1 s waits 600 ms', async () => {
    const run = await loop({ everyMs: 1_000, cycles: 3, cycleMs: 400 });
    expect(run.waits).toEqual([600, 600, 600]);
    expect(run.reports.map((report) => report.cycle)).toEqual([1, 2, 3]);
    await expect(run.result).resolves.toBe(3);
  });

  it.each([
    ['the least jitter', 0, 900],
    ['the most jitter', 1, 1_100],
  ])('spaces with %s (±10%%)', async (_, random, wait) => {
    const run = await loop({ everyMs: 1_000, cycles: 1, random });
    expect(run.waits).toEqual([wait]);
  });

  it('starts the next cycle at once after a cycle longer than the spacing', async () => {
    const run = await loop({ everyMs: 1_000, cycles: 2, cycleMs: 5_000 });
    expect(run.waits).toEqual([0, 0]);
  });

  it('a stop during a cycle ends the loop after it, without waiting', async () => {
    const run = await loop({ everyMs: 3_600_000, cycles: 2, stopIn: 'cycle' });
    expect(run.cycles).toBe(2);
    expect(run.waits).toEqual([3_600_000]);
    await expect(run.result).resolves.toBe(2);
    expect(run.notes.at(-1)).toBe('energy: stopped after cycle 2');
  });

  it('a cycle stopped before it ordered (a stop asked while it read) is not reported, and the loop ends', async () => {
    const run = await loop({
      everyMs: 1_000,
      cycles: 3,
      fail: (cycle) => (cycle === 2 ? new StoppedBeforeOrderingError() : undefined),
    });
    expect(run.reports.map((report) => report.cycle)).toEqual([1]);
    await expect(run.result).resolves.toBe(1);
    expect(run.notes).toEqual(['energy: stopped in cycle 2, before it ordered anything']);
  });

  it('a stop before the first cycle says so', async () => {
    const run = await loop({ everyMs: 1_000, cycles: 0 });
    expect(run.notes).toEqual(['energy: stopped before its first cycle']);
  });

  it.each([
    ['a 400 on the options', new ApiError(400, 'GET /v1/energy/options failed: HTTP 400', undefined), 2],
    ['a 400 said again in context', new ContextualError('quote: bad', new ApiError(400, 'bad', undefined)), 2],
    ['a 503', new ApiError(503, 'unavailable', undefined), 7],
    ['the network', new NetworkError('connection refused'), 7],
  ])('%s is reported and the next cycle runs', async (_, error, exitCode) => {
    const run = await loop({ everyMs: 1_000, cycles: 2, fail: (cycle) => (cycle === 1 ? error : undefined) });
    await expect(run.result).resolves.toBe(2);
    expect(run.reports[0]).toMatchObject({ cycle: 1, items: [], error: { exit_code: exitCode } });
    expect(run.reports[1]).toEqual(expect.objectContaining({ cycle: 2, items: [] }));
    expect(run.reports[1]!.error).toBeUndefined();
    expect(run.notes[0]).toMatch(new RegExp(`cycle 1 failed \\(exit ${exitCode}\\).*trying again next cycle`));
  });

  it.each([
    ['a usage error of our own', new UsageError('--hours 5 is not offered')],
    ['a credential failure', new AuthError('refused', { status: 401 })],
    ['an API 401', new ApiError(401, 'unauthorized', undefined)],
    ['a stop signal', new InterruptedError('SIGTERM')],
    ['a bug', new TypeError('x is undefined')],
  ])('%s ends the service with it', async (_, error) => {
    const run = await loop({ everyMs: 1_000, cycles: 5, fail: () => error });
    await expect(run.result).rejects.toBe(error);
    expect(run.cycles).toBe(1);
    expect(run.reports).toEqual([]);
  });
});

describe('endsService', () => {
  it('tells an API answer (exit 2 for one run) from a usage error of our own', () => {
    expect(endsService(new ApiError(400, 'bad request', undefined))).toBe(false);
    expect(endsService(new ApiError(422, 'unprocessable', undefined))).toBe(false);
    expect(endsService(new UsageError('bad flag'))).toBe(true);
    expect(endsService(new ContextualError('line', new UsageError('bad flag')))).toBe(true);
  });
});

describe('the spacing of cycles runs on the monotonic clock', () => {
  it('a wall clock stepped 2 h back inside a cycle moves no wait: each is the interval less the cycle', async () => {
    const wall = fakeClock(1_800_000_000_000);
    const mono = fakeClock(1_000);
    let cycles = 0;
    const waits: number[] = [];
    await runService({
      everyMs: 5_000,
      nowMs: wall.now,
      monoMs: mono.now,
      random: () => 0.5,
      note: () => undefined,
      report: async () => undefined,
      cycle: async () => {
        cycles += 1;
        mono.advance(200);
        wall.advance(200 - 7_200_000);
        return [] as EnsureItem[];
      },
      stop: {
        get requested() {
          return cycles >= 3;
        },
        wait: async (ms) => {
          waits.push(ms);
          mono.advance(ms);
          wall.advance(ms);
        },
      },
    });
    expect(waits).toEqual([4_800, 4_800]);
  });
});
