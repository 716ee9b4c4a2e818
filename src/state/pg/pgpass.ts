/**
 * The password file libpq reads (`passfile` in the URL, else PGPASSFILE, else ~/.pgpass), read as libpq's
 * passwordFromFile and pwdfMatchesString read it (src/interfaces/libpq/fe-connect.c):
 *   - `host:port:database:user:password` lines; `#` starts a comment line; a field that is exactly `*`
 *     matches anything; `\` escapes the next character (`\:`, `\\`);
 *   - the password ends at its first unescaped `:` (what follows is not part of it);
 *   - `localhost` matches no host given or libpq's default socket folder only, never another socket folder
 *     (a socket folder is matched by its own path);
 *   - the file is ignored, with a warning, when it is not a plain file or its group or others have any access
 *     (mode & 0077: 0640 is ignored as 0644 is).
 */
import { statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { readRegularFileSync } from '../../storage/bounded-read.js';

export interface PgpassTarget {
  host: string;
  port: string;
  database: string;
  user: string;
}

/** The password found, or why none was: said when the server then asks for one. */
export type PgpassLookup =
  | { password: string; file: string | undefined; ignored?: undefined; unreadable?: undefined }
  | { password?: undefined; file: string | undefined; ignored?: string; unreadable?: string };

/**
 * libpq's DEFAULT_PGSOCKET_DIR: /tmp as PostgreSQL builds it, /var/run/postgresql as Debian's and Red Hat's
 * packages build it. Either is what `localhost` in a line stands for when the host is a socket folder.
 */
const DEFAULT_SOCKET_DIRS = new Set(['/tmp', '/var/run/postgresql']);

export function pgpassFile(env: NodeJS.ProcessEnv, fromUrl: string | undefined): string | undefined {
  return fromUrl || env.PGPASSFILE || (env.HOME ? join(env.HOME, '.pgpass') : undefined);
}

export function pgpassEntry(file: string | undefined, target: PgpassTarget): PgpassLookup {
  if (file === undefined || target.database === '' || target.user === '') return { file };
  let text: string;
  let stat: Stats;
  try {
    stat = statSync(file);
  } catch (error) {
    // libpq: "If password file cannot be opened, ignore it." We say why, where the server then asks for one.
    return { file, unreadable: cannotRead(error, undefined) };
  }
  try {
    if (!stat.isFile()) return { file, ignored: 'it is not a plain file' };
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) !== 0)
      return {
        file,
        ignored: `its group or others have access (mode 0${mode.toString(8)}; libpq wants u=rw, 0600, or less)`,
      };
    text = readRegularFileSync(file);
  } catch (error) {
    return { file, unreadable: cannotRead(error, stat) };
  }
  const host = target.host === '' || DEFAULT_SOCKET_DIRS.has(target.host) ? 'localhost' : target.host;
  const wanted = [host, target.port === '' ? '5432' : target.port, target.database, target.user];
  for (const line of text.split('\n')) {
    const stripped = line.replace(/[\r\n]+$/, '');
    if (stripped === '' || stripped.startsWith('#')) continue;
    let rest: string | undefined = stripped;
    for (const token of wanted) rest = rest === undefined ? undefined : afterMatch(rest, token);
    if (rest !== undefined) return { password: unescapePassword(rest), file };
  }
  return { file };
}

/**
 * Why the file could not be read, for the one who must fix it: it does not exist, or it cannot be read, with
 * its owner and mode and this process's uid (a file made 0600 by root, mounted into a container that runs as
 * uid 1000, is the usual case).
 */
function cannotRead(error: unknown, stat: Stats | undefined): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'ENOTDIR') return 'does not exist (a part of its path is a file, not a folder)';
  const me = process.getuid?.();
  const owner =
    stat === undefined
      ? ''
      : `owner uid ${stat.uid}, group gid ${stat.gid}, mode 0${(stat.mode & 0o777).toString(8).padStart(3, '0')}; `;
  return `cannot be read (${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? 'error')}: ${owner}this process runs as uid ${me ?? '-'})`;
}

/** pwdfMatchesString: the rest of the line after a field equal to `token` (or `*`), else undefined. */
function afterMatch(line: string, token: string): string | undefined {
  if (line.startsWith('*:')) return line.slice(2);
  let i = 0;
  let t = 0;
  while (i < line.length) {
    let escaped = false;
    if (line[i] === '\\') {
      i += 1;
      escaped = true;
    }
    if (line[i] === ':' && t === token.length && !escaped) return line.slice(i + 1);
    if (t === token.length || line[i] !== token[t]) return undefined;
    i += 1;
    t += 1;
  }
  return undefined;
}

/** The password field de-escaped, up to its first unescaped `:`. */
function unescapePassword(field: string): string {
  let password = '';
  for (let i = 0; i < field.length && field[i] !== ':'; i++) {
    if (field[i] === '\\' && i + 1 < field.length) i += 1;
    password += field[i];
  }
  return password;
}
