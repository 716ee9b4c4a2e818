/**
 * The config folder holds the API secret: it must be private to its owner. We create it 0700 and refuse
 * to read a file or folder that group or others can read, saying the chmod that fixes it (as ssh does).
 * File-system failures become errors that name the path, never "internal error".
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../domain/errors.js';
import { UnsafeFileError } from '../domain/cli-errors.js';
import { PRIVATE_DIR_MODE } from '../storage/file-modes.js';

/** The config folder (settings, credentials) or the state folder (the order journal). */
export type PrivateArea = 'config' | 'state';
const AREA_VARIABLE: Record<PrivateArea, string> = { config: 'ENERGY_CONFIG_DIR', state: 'ENERGY_STATE_DIR' };
const moveHint = (area: PrivateArea) => `set ${AREA_VARIABLE[area]} to a folder you own, or fix the path`;

export function ensurePrivateDir(dir: string, area: PrivateArea = 'config'): void {
  try {
    makeDirs(dir);
  } catch (error) {
    throw new UsageError(`cannot create the ${area} folder ${dir}: ${describeFsError(error)}`, {
      hint: moveHint(area),
    });
  }
  assertPrivate(dir, 'folder', area);
}

/**
 * mkdir -p, one level at a time. Not `mkdirSync(dir, { recursive: true })`: on Node 20 that loops for
 * ever at full CPU under a folder that refuses new entries with ENOENT, such as /proc.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let current = resolve(dir); ; current = dirname(current)) {
    if (existsSync(current)) break;
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing) {
    try {
      mkdirSync(path, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      // A parallel run made it a moment ago (20 `config set` at once): that is the folder we wanted, as
      // long as it is a folder; assertPrivate then checks its mode.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(path).isDirectory()) throw error;
    }
  }
}

/** Throws when `path` exists and is open to group or others. Returns false when it does not exist. */
export function assertPrivate(path: string, kind: 'file' | 'folder', area: PrivateArea = 'config'): boolean {
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new UsageError(`cannot read the ${area} ${kind} ${path}: ${describeFsError(error)}`, {
      hint: moveHint(area),
    });
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    const wanted = kind === 'folder' ? '700' : '600';
    // Not authentication, whichever folder: a local setup problem, fixed here, with nothing sent (exit 2).
    throw new UnsafeFileError(
      `the ${area} ${kind} ${path} is readable by others (mode ${mode.toString(8)}): refusing to use it`,
      {
        hint: `chmod ${wanted} '${path}'`,
      },
    );
  }
  return true;
}

/** The error code and its meaning, without the message: messages can quote file contents. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'ENOENT':
      return 'no such folder, and none can be made there';
    case 'EFTYPE':
      // storage/bounded-read.ts: "a named pipe, not a regular file".
      return (error as Error).message;
    default:
      return code ?? (error instanceof SyntaxError ? 'not valid JSON' : 'unreadable');
  }
}
