/**
 * The password file libpq reads (PGPASSFILE, else ~/.pgpass): `host:port:database:user:password` lines, `*`
 * for any value, `\:` and `\\` escaped; ignored when others can read it, as libpq does. A socket directory
 * host also matches `localhost`.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Target {
  host: string;
  port: string;
  database: string;
  user: string;
}

export function pgpassEntry(env: NodeJS.ProcessEnv, target: Target): string | undefined {
  const file = env.PGPASSFILE || (env.HOME ? join(env.HOME, '.pgpass') : undefined);
  if (file === undefined) return undefined;
  let text: string;
  try {
    if ((statSync(file).mode & 0o077) !== 0) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const wanted = [target.host, target.port, target.database, target.user];
  for (const line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    const fields = splitFields(line);
    if (fields.length < 5) continue;
    const matches = wanted.every((value, index) => {
      const field = fields[index]!;
      return field === '*' || field === value || (index === 0 && field === 'localhost' && value.startsWith('/'));
    });
    if (matches) return fields.slice(4).join(':');
  }
  return undefined;
}

function splitFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === '\\' && i + 1 < line.length) field += line[++i];
    else if (char === ':' && fields.length < 4) {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
