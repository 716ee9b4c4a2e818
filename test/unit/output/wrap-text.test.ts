import { describe, expect, it } from 'vitest';
import { wrapWords } from '../../../src/output/wrap-text.js';
import { visibleWidth } from '../../../src/output/text-width.js';

describe('wrapWords', () => {
  it('keeps text that fits on one line', () => {
    expect(wrapWords('accepted: signed GET /v1/balance answered', 60)).toEqual([
      'accepted: signed GET /v1/balance answered',
    ]);
  });

  it('breaks at spaces, never inside a word that fits a line', () => {
    const lines = wrapWords('the local clock agrees with the server’s (server 1795643869, local 1795643869)', 30);
    expect(lines).toEqual(['the local clock agrees with', 'the server’s (server', '1795643869, local 1795643869)']);
  });

  it('breaks a word wider than the line after a slash, else between glyphs', () => {
    const lines = wrapWords('no config file /tmp/energy-e2e-Bp6cur/config/config.json', 25);
    expect(lines).toEqual(['no config file', '/tmp/energy-e2e-Bp6cur/', 'config/config.json']);
    expect(wrapWords('订单已交付订单已交付', 6)).toEqual(['订单已', '交付订', '单已交', '付']);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(25);
  });
});
