/**
 * The password file, against libpq's passwordFromFile and pwdfMatchesString (src/interfaces/libpq/fe-connect.c,
 * PostgreSQL 14-16): the expected values are what that code does with each line, worked by hand from it.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pgpassEntry, pgpassFile } from '../../../src/state/pg/pgpass.js';

function passfile(text: string, mode = 0o600): string {
  const path = join(mkdtempSync(join(tmpdir(), 'energy-pgpass-')), 'pgpass');
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}
const target = { host: 'db.internal', port: '5432', database: 'energy', user: 'energy' };
const passwordOf = (text: string, to = target, mode = 0o600) => pgpassEntry(passfile(text, mode), to).password;

describe('the password file (passfile=, PGPASSFILE, ~/.pgpass)', () => {
  it('gives the first matching line, with * and escapes as libpq reads them', () => {
    const text = [
      '# comment',
      'other:5432:energy:energy:no',
      'db.internal:*:energy:energy:p\\:w\\\\1',
      '*:*:*:*:fallback',
    ].join('\n');
    expect(passwordOf(text)).toBe('p:w\\1');
    expect(passwordOf(text, { ...target, user: 'x' })).toBe('fallback');
  });

  it('ends the password at an unescaped colon, as libpq de-escapes up to the first ":"', () => {
    // passwordFromFile: `for (p1 = p2 = ret; *p1 != ':' && *p1 != '\0'; ++p1, ++p2)`.
    expect(passwordOf('db.internal:5432:energy:energy:pa:ss\n')).toBe('pa');
    expect(passwordOf('db.internal:5432:energy:energy:pa\\:ss\n')).toBe('pa:ss');
  });

  it('* matches only as a whole field; an escaped * is a literal star', () => {
    expect(passwordOf('db*:5432:energy:energy:no\n')).toBeUndefined();
    expect(passwordOf('\\*:5432:energy:energy:star\n', { ...target, host: '*' })).toBe('star');
    expect(passwordOf('\\*:5432:energy:energy:star\n')).toBeUndefined();
  });

  it('a host with colons: escaped or not, compared character by character as pwdfMatchesString does; CRLF read', () => {
    // A ':' ends a field only where the host has no more characters to compare.
    expect(passwordOf('fe80\\:\\:1:5432:energy:energy:v6\r\n', { ...target, host: 'fe80::1' })).toBe('v6');
    expect(passwordOf('fe80::1:5432:energy:energy:v6\n', { ...target, host: 'fe80::1' })).toBe('v6');
    expect(passwordOf('fe80::1:5432:energy:energy:v6\n', { ...target, host: 'fe80' })).toBeUndefined();
  });

  it('localhost stands for no host or the default socket folder, never for another socket folder', () => {
    // passwordFromFile: "'localhost' matches pghost of '' or the default socket directory".
    const line = 'localhost:5432:energy:energy:sock\n';
    expect(passwordOf(line, { ...target, host: '/srv/pg-sockets' })).toBeUndefined();
    expect(passwordOf(line, { ...target, host: '/tmp' })).toBe('sock');
    expect(passwordOf(line, { ...target, host: '/var/run/postgresql' })).toBe('sock');
    expect(passwordOf(line, { ...target, host: 'localhost' })).toBe('sock');
    expect(passwordOf('/srv/pg-sockets:5432:energy:energy:by-path\n', { ...target, host: '/srv/pg-sockets' })).toBe(
      'by-path',
    );
  });

  it('an empty port is 5432; an empty database or user looks nothing up', () => {
    expect(passwordOf('db.internal:5432:energy:energy:p\n', { ...target, port: '' })).toBe('p');
    expect(passwordOf('*:*:*:*:p\n', { ...target, user: '' })).toBeUndefined();
    expect(passwordOf('*:*:*:*:p\n', { ...target, database: '' })).toBeUndefined();
  });

  it('ignores a file its group or others can read or write (0640, 0604, 0620), saying so, as libpq does', () => {
    for (const mode of [0o640, 0o604, 0o620, 0o644]) {
      const found = pgpassEntry(passfile('*:*:*:*:open\n', mode), target);
      expect(found.password, mode.toString(8)).toBeUndefined();
      expect(found.ignored).toContain(`mode 0${mode.toString(8)}`);
    }
    expect(passwordOf('*:*:*:*:private\n', target, 0o400)).toBe('private');
  });

  it('ignores a folder named as the file; passfile= before PGPASSFILE before HOME/.pgpass', () => {
    const dir = mkdtempSync(join(tmpdir(), 'energy-pgpass-dir-'));
    mkdirSync(join(dir, 'folder'));
    expect(pgpassEntry(join(dir, 'folder'), target).ignored).toBe('it is not a plain file');
    expect(pgpassFile({ PGPASSFILE: '/env', HOME: '/home/x' }, '/url')).toBe('/url');
    expect(pgpassFile({ PGPASSFILE: '/env', HOME: '/home/x' }, undefined)).toBe('/env');
    expect(pgpassFile({ HOME: '/home/x' }, undefined)).toBe('/home/x/.pgpass');
  });
});
