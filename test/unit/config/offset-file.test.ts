import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OFFSET_TTL_SECONDS, OffsetFile } from '../../../src/config/offset-file.js';
import { fakeClock } from '../../helpers/fake-clock.js';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'energy-offset-')), 'cfg');

describe('OffsetFile', () => {
  it('keeps an offset per origin across instances, in a private file', () => {
    const dir = fresh();
    new OffsetFile(dir).save('http://a', 900);
    new OffsetFile(dir).save('http://b', -30);
    expect(new OffsetFile(dir).load('http://a')).toBe(900);
    expect(new OffsetFile(dir).load('http://b')).toBe(-30);
    expect(statSync(join(dir, 'clock-offset.json')).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('forgets an offset older than its lifetime', () => {
    const dir = fresh();
    const clock = fakeClock(1_800_000_000_000);
    const file = new OffsetFile(dir, clock.now);
    file.save('http://a', 900);
    clock.advance((OFFSET_TTL_SECONDS + 1) * 1000);
    expect(file.load('http://a')).toBeUndefined();
  });

  it('removes the entry when the clock agrees again', () => {
    const dir = fresh();
    const file = new OffsetFile(dir);
    file.save('http://a', 900);
    file.save('http://a', 0);
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toEqual({});
  });

  it('reads a damaged file as empty, and leaves no temporary files behind', () => {
    const dir = fresh();
    const file = new OffsetFile(dir);
    file.save('http://a', 10);
    writeFileSync(file.path, '{"http://a": {"offset_seconds": "x"');
    expect(file.load('http://a')).toBeUndefined();
    file.save('http://a', 20);
    expect(file.load('http://a')).toBe(20);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
