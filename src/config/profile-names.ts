/**
 * Profile names for shell completion: read with plain node:fs and JSON.parse, without the store's locks
 * and permission checks, because a shell calls this on every TAB after --profile. Never throws: a missing,
 * unreadable or corrupt file just completes nothing.
 */
import { readRegularFileSync } from '../storage/bounded-read.js';
import { join } from 'node:path';
import { PROFILE_NAME_TEXT } from '../domain/patterns.js';
import { CONFIG_FILE_NAME } from './paths.js';

export function profileNames(dir: string): string[] {
  try {
    const data: unknown = JSON.parse(readRegularFileSync(join(dir, CONFIG_FILE_NAME)));
    const profiles = typeof data === 'object' && data !== null ? (data as { profiles?: unknown }).profiles : undefined;
    if (typeof profiles !== 'object' || profiles === null) return [];
    // Only names a command would accept: nothing odd reaches the shell.
    return Object.keys(profiles)
      .filter((name) => PROFILE_NAME_TEXT.test(name))
      .sort();
  } catch {
    return [];
  }
}
