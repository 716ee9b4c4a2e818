/**
 * What the terminal's character set can show. Our own messages use a few typographic characters (… → ≥ ’);
 * under a locale that is not UTF-8 (LANG=C, POSIX, ISO-8859-1) a terminal shows their bytes as garbage, so
 * the readable output writes ASCII stand-ins for them instead. Only these few characters change (other text
 * is shown as it came), and --json, which is data, keeps every character exact.
 */

/**
 * True when the locale in effect names UTF-8. The first non-empty of LC_ALL, LC_CTYPE and LANG decides, as
 * setlocale(3) does; none set is the POSIX locale, which is ASCII. Windows consoles take UTF-8 from Node.
 */
export function utf8Locale(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return true;
  const locale = [env.LC_ALL, env.LC_CTYPE, env.LANG].find((value) => value !== undefined && value !== '');
  return locale !== undefined && /utf-?8/i.test(locale);
}

const STAND_INS: Readonly<Record<string, string>> = { '…': '...', '→': '->', '≥': '>=', '’': "'" };
// Escaped (… → ≥ ’): one character beyond ASCII in a bundle makes V8 hold its whole source as two-byte text.
const OURS = /[\u2026\u2192\u2265\u2019]/g;
/** The same, to test for: a test is ~4x cheaper than a replace that finds nothing (800,000 table cells). */
const ANY_OF_OURS = /[\u2026\u2192\u2265\u2019]/;

/** `text` with our typographic characters replaced by ASCII when the locale cannot show them. */
export function inCharset(text: string, utf8: boolean): string {
  return utf8 || !ANY_OF_OURS.test(text) ? text : text.replace(OURS, (char) => STAND_INS[char] ?? char);
}

/** The ellipsis a cut value ends with. */
export function ellipsis(utf8: boolean): string {
  return utf8 ? '…' : '...';
}
