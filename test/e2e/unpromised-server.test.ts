/**
 * A server that keeps to the spec's words where the spec is silent, in ways a client must not take on
 * trust (issue 32): a /v1/time that cannot be the time, a list served oldest first, a page repeated under a
 * fresh cursor, order stamps ahead of /v1/time. Each runs the built CLI against the sandbox, which plays
 * that server through an option.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectNoStackTrace } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';

describe('a /v1/time that cannot be the time', () => {
  // Spec, Time response: "unix_time | integer (int64) | Server time in Unix seconds" — no range is given.
  const negative = worldForSuite({ timeAnswer: -5 });
  const yearsAhead = worldForSuite({ timeAnswer: Math.floor(Date.now() / 1000) + 10 * 365 * 86_400 });

  it('-5 is refused like a malformed answer (exit 7), never stored, and the next command still signs', async () => {
    const time = await negative.run(['time']);
    expect(time.code).toBe(7);
    expect(time.stderr).toMatch(/unix_time -5, which cannot be the time \(before 2020\)/);
    expectNoStackTrace(time);
    expect(existsSync(join(negative.configDir, 'clock-offset.json'))).toBe(false);
    const balance = await negative.run(['balance', '--json']);
    expect(balance.code).toBe(0);
    expect(JSON.parse(balance.stdout)).toMatchObject({ available_trx: '1000.000000' });
  });

  it('a time ten years from this host is refused too', async () => {
    const time = await yearsAhead.run(['time']);
    expect(time.code).toBe(7);
    expect(time.stderr).toMatch(/more than five years from this host's clock/);
    expect(existsSync(join(yearsAhead.configDir, 'clock-offset.json'))).toBe(false);
  });

  it('an offset stored from such a time is not used: balance signs on the host clock, exit 0', async () => {
    mkdirSync(negative.configDir, { recursive: true, mode: 0o700 });
    const measuredAt = Math.floor(Date.now() / 1000);
    // What an earlier version stored after answering {"unix_time": -5}: server minus local.
    const offsets = { [negative.sandbox.url]: { offset_seconds: -5 - measuredAt, measured_at: measuredAt } };
    writeFileSync(join(negative.configDir, 'clock-offset.json'), JSON.stringify(offsets), { mode: 0o600 });
    const balance = await negative.run(['balance']);
    expect(balance.code).toBe(0);
  });
});
