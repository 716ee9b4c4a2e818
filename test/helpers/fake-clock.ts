/**
 * The one hand-moved clock of the suite: `now()` reads it, `advance(ms)` moves it, `sleep(ms)` is a pause that
 * moves it and returns at once (no real time passes, so no test waits on a timer). Its functions are arrows, so
 * a test passes `clock.now` or `clock.sleep` where the code takes a `nowMs`/`sleep` function.
 */
export interface FakeClock {
  /** The clock's reading, in ms. */
  readonly now: () => number;
  /** Moves the clock on by `ms` (negative: back, a wall clock stepped) and returns the new reading. */
  readonly advance: (ms: number) => number;
  /** Sets the reading. */
  readonly set: (ms: number) => void;
  /** A pause of `ms` on this clock: it moves the clock and resolves. */
  readonly sleep: (ms: number) => Promise<void>;
}

export function fakeClock(startMs = 0): FakeClock {
  let reading = startMs;
  return {
    now: () => reading,
    advance: (ms) => (reading += ms),
    set: (ms) => {
      reading = ms;
    },
    sleep: async (ms) => {
      reading += ms;
    },
  };
}

/**
 * The server's clock as a run measured it (ordering/server-clock.ts's `ServerClock`), on a fake clock the test
 * sets or moves: `nowMs()` is the reading, `offsetMs` how far it stands ahead of this host's.
 */
export interface FakeServerClock extends FakeClock {
  offsetMs: number;
  readonly nowMs: () => number;
}

export function fakeServerClock(startMs = 0, offsetMs = 0): FakeServerClock {
  const clock = fakeClock(startMs);
  return { ...clock, offsetMs, nowMs: clock.now };
}
