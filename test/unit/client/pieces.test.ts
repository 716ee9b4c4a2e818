import { describe, expect, it } from 'vitest';
import { RequestClock, measureOffsetSeconds } from '../../../src/client/clock.js';
import { maskKey, maskSecret, redactAuthorization, scrubSecrets } from '../../../src/client/redact.js';
import { backoffDelayMs, isRetryableStatus, parseRetryAfter } from '../../../src/client/retry-policy.js';
import * as schema from '../../../src/client/schemas.js';
import { sampleOrder } from '../../helpers/sample-order.js';
import { fakeClock } from '../../helpers/fake-clock.js';

describe('retry policy', () => {
  const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1000 };

  it('doubles the step and keeps at least half of it (equal jitter)', () => {
    expect([1, 2, 3].map((n) => backoffDelayMs(n, policy, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((n) => backoffDelayMs(n, policy, () => 1))).toEqual([100, 200, 400]);
  });

  it('caps the step', () => {
    expect(backoffDelayMs(10, policy, () => 1)).toBe(1000);
  });

  it('retries only 429 and the transient 5xx', () => {
    expect([429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 404, 409, 413, 415, 501].some(isRetryableStatus)).toBe(false);
  });

  it.each([
    ['5', 5000],
    ['0', 0],
    ['Mon, 23 Nov 2026 10:00:07 GMT', 7000],
    ['Mon, 23 Nov 2026 09:00:00 GMT', 0],
    ['soon', undefined],
    [undefined, undefined],
    // Not valid, so the caller backs off as usual: negative, beyond any sensible number, not an HTTP-date.
    ['-5', undefined],
    ['1'.repeat(400), undefined],
    ['2147483648', undefined],
    ['1e3', undefined],
    ['2026-11-23T10:00:07Z', undefined],
    ['Sunday, 06-Nov-94 08:49:37 GMT', 0],
  ])('reads Retry-After %j as %j ms', (header, expected) => {
    expect(parseRetryAfter(header, Date.parse('2026-11-23T10:00:00Z'))).toBe(expected);
  });
});

describe('clock', () => {
  it('measures the offset from the middle of the exchange and of the server second', () => {
    expect(measureOffsetSeconds(1000, 1_000_000, 1_001_000)).toBe(0);
    expect(measureOffsetSeconds(1900, 1_000_000, 1_000_200)).toBe(900);
    expect(measureOffsetSeconds(100, 1_000_000, 1_000_100)).toBe(-900);
  });

  it('corrects and saves only beyond the tolerance', () => {
    const saved: number[] = [];
    const clock = new RequestClock(
      'http://x',
      { load: () => undefined, save: (_o, s) => saved.push(s) },
      () => 1_000_400,
      () => 0,
    );
    expect(clock.offer(1003, 0, 0)).toEqual({ taken: true, corrected: false });
    expect(saved).toEqual([]);
    // 900 s off: beyond the tolerance, and beyond the bound past which a reading is read again.
    expect(clock.offer(1900, 0, 0)).toEqual({ taken: false, corrected: false });
    expect(clock.offer(1900, 0, 0)).toEqual({ taken: true, corrected: true });
    expect(clock.timestamp()).toBe(1900);
    expect(saved).toEqual([900]);
  });

  it('runs on the monotonic clock after a reading: a host clock that steps moves nothing', () => {
    const wall = fakeClock(1_000_000_000);
    const mono = fakeClock(50);
    const clock = new RequestClock('http://x', undefined, wall.now, mono.now);
    expect(clock.offer(1_000_000, 50, 50).taken).toBe(true);
    wall.advance(-7_200_000);
    mono.advance(10_000);
    expect(clock.serverNowMs()).toBe(1_000_010_500);
    expect(clock.timestamp()).toBe(1_000_010);
  });

  it('reads again when a reading disagrees with its estimate; two that agree win, whichever two', () => {
    const mono = fakeClock(0);
    const clock = new RequestClock('http://x', undefined, () => 1_000_000_000 + mono.now(), mono.now);
    expect(clock.offer(1_000_000, 0, 0).taken).toBe(true);
    mono.set(60_000);
    // 2 h behind: doubted; then one that agrees with the clock's estimate is taken, the doubted one dropped.
    expect(clock.offer(1_000_060 - 7200, mono.now(), mono.now()).taken).toBe(false);
    expect(clock.timestamp()).toBe(1_000_060);
    expect(clock.offer(1_000_060, mono.now(), mono.now())).toEqual({ taken: true, corrected: false });
    // 2 days ahead twice, a second apart: the server's clock really moved; the two agree and win.
    expect(clock.offer(1_000_060 + 172_800, mono.now(), mono.now()).taken).toBe(false);
    mono.advance(1000);
    expect(clock.offer(1_000_061 + 172_800, mono.now(), mono.now())).toEqual({ taken: true, corrected: true });
    expect(clock.timestamp()).toBe(1_000_061 + 172_800);
  });
});

describe('redaction', () => {
  it('masks secrets to the last two characters and keys to the ends', () => {
    expect(maskSecret('abcdefghijklmnopd7')).toBe('****d7');
    expect(maskSecret('short')).toBe('****');
    expect(maskKey('sbx_0123456789abcd')).toBe('sb…cd');
  });

  it('replaces the signature of an Authorization header', () => {
    expect(redactAuthorization('HMAC-SHA256 sbx_0123456789abcd:c2lnbmF0dXJl+/=')).toBe('HMAC-SHA256 sb…cd:[REDACTED]');
    expect(redactAuthorization('garbage')).toBe('[REDACTED]');
  });

  it('scrubs every occurrence of a secret', () => {
    expect(scrubSecrets('x s3cr3t y s3cr3t', ['s3cr3t', undefined])).toBe('x [REDACTED] y [REDACTED]');
  });
});

describe('response shapes', () => {
  const order = sampleOrder();

  it('normalises integer strings in duration_hours', () => {
    const options = schema.optionsResponse(
      { energy_per_portion: 1, max_energy: 2, duration_hours: [1, '24', '-3'], intake_enabled: true },
      '',
    );
    expect(options.duration_hours).toEqual([1, 24, -3]);
  });

  it.each([['01'], ['1.5'], [''], ['1e3'], [1.5], [null]])('refuses the duration item %j', (item) => {
    expect(() =>
      schema.optionsResponse(
        { energy_per_portion: 1, max_energy: 2, duration_hours: [item], intake_enabled: true },
        '',
      ),
    ).toThrow(/duration_hours\[0\] should be an integer/);
  });

  it('requires null-able keys to be present', () => {
    const { failure: _failure, ...withoutFailure } = order;
    expect(() => schema.order(withoutFailure, '')).toThrow(/failure is missing/);
    expect(schema.order(order, '').failure).toBeNull();
  });

  it('checks nested failure objects and keeps unknown keys as sent', () => {
    const parsed = schema.order({ ...order, failure: { code: 'X', message: 'm', extra: 1 }, extra: true }, '');
    expect(parsed.failure).toEqual({ code: 'X', message: 'm', extra: 1 });
    expect(parsed).toHaveProperty('extra', true);
    expect(() => schema.order({ ...order, failure: { code: 'X' } }, '')).toThrow(/failure\.message is missing/);
  });

  it('refuses a non-UUID order id and a bad amount', () => {
    expect(() => schema.order({ ...order, id: '42' }, '')).toThrow(/id should be a UUID/);
    expect(() => schema.order({ ...order, total_trx: '1.00' }, '')).toThrow(/total_trx should be an amount/);
  });

  it('reads Problem Details, or gives undefined for another body', () => {
    const problem = {
      type: 't',
      title: 'T',
      status: 400,
      detail: 'd',
      code: 'C',
      errors: [{ code: 'E', field: 'energy', message: 'm' }],
    };
    expect(schema.parseProblem(problem)).toEqual(problem);
    expect(schema.parseProblem({ message: 'nope' })).toBeUndefined();
    expect(schema.parseProblem('<html>')).toBeUndefined();
  });
});
