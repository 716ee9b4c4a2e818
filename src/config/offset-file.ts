/**
 * The measured clock offset, per API origin, in its own small file beside the config: parallel runs
 * rewrite it without touching the profiles, and each write is a rename of a complete file, so a reader
 * never sees half of one.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import { readRegularFileSync } from '../storage/bounded-read.js';
import { join } from 'node:path';
import { implausibleServerTime, type OffsetStore } from '../client/clock.js';
import { OFFSET_FILE_NAME } from './paths.js';
import { PRIVATE_FILE_MODE } from '../storage/file-modes.js';
import { ensurePrivateDir } from './permissions.js';

/** How long a measured offset is trusted before the clock is taken as right again. */
export const OFFSET_TTL_SECONDS = 12 * 3600;

type OffsetRecord = { offset_seconds: number; measured_at: number };

export class OffsetFile implements OffsetStore {
  constructor(
    readonly dir: string,
    private readonly nowMs: () => number = Date.now,
  ) {}

  get path(): string {
    return join(this.dir, OFFSET_FILE_NAME);
  }

  load(origin: string): number | undefined {
    const record = this.#read()[origin];
    if (record === undefined) return undefined;
    const age = this.nowMs() / 1000 - record.measured_at;
    if (!(age >= 0 && age <= OFFSET_TTL_SECONDS)) return undefined;
    // Checked when read, too: an offset stored by an earlier version from a time that cannot be one.
    const serverNow = Math.floor(this.nowMs() / 1000) + record.offset_seconds;
    return implausibleServerTime(serverNow, this.nowMs()) === undefined ? record.offset_seconds : undefined;
  }

  save(origin: string, offsetSeconds: number): void {
    try {
      ensurePrivateDir(this.dir);
      const records = this.#read();
      if (offsetSeconds === 0) delete records[origin];
      else records[origin] = { offset_seconds: offsetSeconds, measured_at: Math.floor(this.nowMs() / 1000) };
      const temporary = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(records, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
      renameSync(temporary, this.path);
    } catch {
      // The offset is an optimisation: failing to keep it must not fail the command that measured it.
    }
  }

  #read(): Record<string, OffsetRecord> {
    try {
      const parsed: unknown = JSON.parse(readRegularFileSync(this.path));
      if (typeof parsed !== 'object' || parsed === null) return {};
      const records: Record<string, OffsetRecord> = {};
      for (const [origin, value] of Object.entries(parsed)) {
        if (isOffsetRecord(value)) records[origin] = value;
      }
      return records;
    } catch {
      return {};
    }
  }
}

function isOffsetRecord(value: unknown): value is OffsetRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Number.isSafeInteger(record.offset_seconds) && Number.isSafeInteger(record.measured_at);
}
