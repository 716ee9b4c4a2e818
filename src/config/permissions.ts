/**
 * The config folder holds the API secret: it must be private to its owner. We create it 0700 and refuse
 * to read a file or folder that group or others can read, saying the chmod that fixes it (as ssh does).
 */
import { mkdirSync, statSync } from 'node:fs';
import { AuthError } from '../errors.js';

const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  assertPrivate(dir, 'folder');
}

/** Throws when `path` exists and is open to group or others; a missing path is fine. */
export function assertPrivate(path: string, kind: 'file' | 'folder'): void {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(path).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if ((mode & 0o077) !== 0) {
    const wanted = kind === 'folder' ? '700' : '600';
    throw new AuthError(`the config ${kind} ${path} is readable by others (mode ${mode.toString(8)}): refusing to use it`, {
      hint: `chmod ${wanted} '${path}'`,
    });
  }
}
