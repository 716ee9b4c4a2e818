/**
 * Profile names for shell completion: read with plain node:fs and JSON.parse rather than through the store
 * (conf and ajv), because a shell calls this on every TAB after --profile. Never throws: a missing,
 * unreadable or corrupt file just completes nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_FILE_NAME } from './paths.js';

export function profileNames(dir: string): string[] {
  try {
    const data: unknown = JSON.parse(readFileSync(join(dir, CONFIG_FILE_NAME), 'utf8'));
    const profiles = typeof data === 'object' && data !== null ? (data as { profiles?: unknown }).profiles : undefined;
    if (typeof profiles !== 'object' || profiles === null) return [];
    // Only names a command would accept: nothing odd reaches the shell.
    return Object.keys(profiles)
      .filter((name) => /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name))
      .sort();
  } catch {
    return [];
  }
}
