/** The masking rule and the manual say the same thing. */
import { describe, expect, it } from 'vitest';
import { maskSecret } from '../../../src/client/redact.js';
import { manualText } from '../../helpers/manual.js';

const readme = manualText().replace(/\s+/g, ' ');

describe('secret masking', () => {
  const threshold = Number(
    /`\*\*\*\*d7` \(the last two characters\) for secrets of (\d+) characters or more, `\*\*\*\*` alone for shorter ones/.exec(
      readme,
    )?.[1],
  );

  it('is stated in the manual', () => {
    expect(threshold).toBeGreaterThan(0);
  });

  it('shows the last two characters from the threshold the manual gives on, and nothing below it', () => {
    expect(maskSecret('s'.repeat(threshold - 2) + 'd7')).toBe('****d7');
    expect(maskSecret('s'.repeat(threshold + 20) + 'd7')).toBe('****d7');
    expect(maskSecret('s'.repeat(threshold - 3) + 'd7')).toBe('****');
    expect(maskSecret('abc')).toBe('****');
  });

  it.each([10, 11])('masks a secret of %i characters as **** (too short to show any of it)', (length) => {
    expect(maskSecret('x'.repeat(length))).toBe('****');
  });
});
