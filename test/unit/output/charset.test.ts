import { describe, expect, it } from 'vitest';
import { ellipsis, inCharset, utf8Locale } from '../../../src/output/charset.js';

describe('utf8Locale', () => {
  it.each([
    [{ LANG: 'en_US.UTF-8' }, true],
    [{ LANG: 'de_DE.utf8' }, true],
    [{ LANG: 'C' }, false],
    [{}, false],
    [{ LANG: 'en_US.UTF-8', LC_ALL: 'C' }, false],
    [{ LANG: 'C', LC_CTYPE: 'C.UTF-8' }, true],
    [{ LANG: 'en_US.ISO-8859-1' }, false],
    [{ LC_ALL: '', LANG: 'en_US.UTF-8' }, true],
  ])('%j -> %s', (env, expected) => {
    expect(utf8Locale(env, 'linux')).toBe(expected);
  });

  it('takes UTF-8 on Windows', () => {
    expect(utf8Locale({}, 'win32')).toBe(true);
  });
});

describe('inCharset', () => {
  it('keeps text as it is under UTF-8', () => {
    expect(inCharset('waiting… → ≥ token’s', true)).toBe('waiting… → ≥ token’s');
  });

  it('writes ASCII stand-ins otherwise, and leaves other text alone', () => {
    expect(inCharset('waiting… → ≥ token’s é', false)).toBe("waiting... -> >= token's é");
    expect(ellipsis(false)).toBe('...');
    expect(ellipsis(true)).toBe('…');
  });
});
