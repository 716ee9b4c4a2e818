import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pgpassEntry } from '../../../src/state/pg/pgpass.js';

function passfile(text: string, mode = 0o600): string {
  const path = join(mkdtempSync(join(tmpdir(), 'energy-pgpass-')), 'pgpass');
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}
const target = { host: 'db.internal', port: '5432', database: 'energy', user: 'energy' };

describe('the password file (PGPASSFILE, ~/.pgpass)', () => {
  it('gives the first matching line, with * and escapes as libpq reads them', () => {
    const file = passfile(
      ['# comment', 'other:5432:energy:energy:no', 'db.internal:*:energy:energy:p\\:w\\\\1', '*:*:*:*:fallback'].join(
        '\n',
      ),
    );
    expect(pgpassEntry({ PGPASSFILE: file }, target)).toBe('p:w\\1');
    expect(pgpassEntry({ PGPASSFILE: file }, { ...target, user: 'x' })).toBe('fallback');
  });

  it('matches a socket directory with localhost; HOME/.pgpass without PGPASSFILE', () => {
    const file = passfile('localhost:5432:energy:energy:sock\n');
    expect(pgpassEntry({ PGPASSFILE: file }, { ...target, host: '/run/postgresql' })).toBe('sock');
    const home = join(file, '..');
    writeFileSync(join(home, '.pgpass'), '*:*:*:*:from-home\n', { mode: 0o600 });
    expect(pgpassEntry({ HOME: home }, target)).toBe('from-home');
  });

  it('ignores a file others can read, as libpq does', () => {
    expect(pgpassEntry({ PGPASSFILE: passfile('*:*:*:*:open\n', 0o644) }, target)).toBeUndefined();
  });
});
