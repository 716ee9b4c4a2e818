/** Times that cannot be the server's (issue 32): the spec gives unix_time no range, so the client draws one. */
import { describe, expect, it } from 'vitest';
import { implausibleServerTime } from '../../../src/client/clock.js';

// 2026-11-27T12:00:00Z
const HOST_MS = 1_795_780_800_000;

describe('implausibleServerTime', () => {
  it.each([
    [-5, 'before 2020'],
    [0, 'before 2020'],
    [1_577_836_799, 'before 2020'],
    [4_102_444_800, 'after 2099'],
    [1_795_780_800.5, 'not a whole number of seconds'],
    // Five years and a second either side of the host's clock.
    [1_795_780_800 + 157_680_001, "more than five years from this host's clock"],
    [1_795_780_800 - 157_680_001, "more than five years from this host's clock"],
  ])('%s: %s', (unixTime, why) => {
    expect(implausibleServerTime(unixTime, HOST_MS)).toBe(why);
  });

  it('takes a time days or a few years off the host clock', () => {
    expect(implausibleServerTime(1_795_780_800 + 3 * 86_400, HOST_MS)).toBeUndefined();
    expect(implausibleServerTime(1_795_780_800 - 157_680_000, HOST_MS)).toBeUndefined();
  });

  it("a host whose clock reset to 1970 takes the server's word within 2020-2099", () => {
    expect(implausibleServerTime(1_795_780_800, 0)).toBeUndefined();
    expect(implausibleServerTime(-5, 0)).toBe('before 2020');
  });
});
