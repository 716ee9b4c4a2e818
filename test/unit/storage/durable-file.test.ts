/**
 * writeDurably through a watching file system: the bytes are fsync'd before the file takes its name, the
 * folder is fsync'd after, and both are done before the write resolves. Each fsync is made to finish a
 * moment late, so a sync that is not awaited shows up after "resolved".
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { link, open, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeDurably, type DurableFs } from '../../../src/storage/durable-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'energy-durable-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** node:fs/promises, with each call written to `events` ("sync <name>", "rename <from> <to>"…), names relative to `dir`. */
function watchedFs(events: string[]): DurableFs {
  const name = (path: unknown) =>
    String(path) === dir ? '<folder>' : basename(String(path)).replace(/\.\d+\.[0-9a-f]+\.tmp$/, '.tmp');
  return {
    open: (async (path: Parameters<typeof open>[0], flags?: string, mode?: number) => {
      const handle = await open(path, flags, mode);
      const sync = handle.sync.bind(handle);
      handle.sync = async () => {
        await sync();
        await nextTurn();
        events.push(`sync ${name(path)}`);
      };
      return handle;
    }) as typeof open,
    link: async (from, to) => {
      await link(from, to);
      events.push(`link ${name(from)} ${name(to)}`);
    },
    rename: async (from, to) => {
      await rename(from, to);
      events.push(`rename ${name(from)} ${name(to)}`);
    },
  };
}

describe('writeDurably', () => {
  it('fsyncs the bytes, renames, then fsyncs the folder, all before it resolves', async () => {
    const events: string[] = [];
    const path = join(dir, 'record.json');
    await expect(writeDurably(path, 'whole\n', { fs: watchedFs(events) })).resolves.toBe(true);
    events.push('resolved');
    expect(events).toEqual(['sync record.json.tmp', 'rename record.json.tmp record.json', 'sync <folder>', 'resolved']);
    expect(readFileSync(path, 'utf8')).toBe('whole\n');
    expect(readdirSync(dir)).toEqual(['record.json']);
  });

  it('exclusive: fsyncs the bytes, links the new name, fsyncs the folder; a taken name is left as it is', async () => {
    const events: string[] = [];
    const path = join(dir, 'pending.json');
    await expect(writeDurably(path, 'first', { exclusive: true, fs: watchedFs(events) })).resolves.toBe(true);
    events.push('resolved');
    expect(events).toEqual([
      'sync pending.json.tmp',
      'link pending.json.tmp pending.json',
      'sync <folder>',
      'resolved',
    ]);
    await expect(writeDurably(path, 'second', { exclusive: true })).resolves.toBe(false);
    expect(readFileSync(path, 'utf8')).toBe('first');
  });

  it('syncFolder: false fsyncs the bytes only (the caller keeps an older record valid meanwhile)', async () => {
    const events: string[] = [];
    await writeDurably(join(dir, 'settled.json'), 'x', { syncFolder: false, fs: watchedFs(events) });
    events.push('resolved');
    expect(events).toEqual(['sync settled.json.tmp', 'rename settled.json.tmp settled.json', 'resolved']);
  });
});
