/** The CSV formula guard leaves a plain number alone (a negative saving), and still guards what only looks like one. */
import { describe, expect, it } from 'vitest';
import { csvField } from '../../../src/output/csv.js';

describe('csvField and numbers', () => {
  it.each([
    ['-12345678887.584567', '-12345678887.584567'],
    ['-1', '-1'],
    ['-1+1', "'-1+1"],
    ['-2.5e3', "'-2.5e3"],
    ['+1', "'+1"],
    ['-', "'-"],
    ['-.5', "'-.5"],
  ])('%s is written %s', (value, written) => {
    expect(csvField(value)).toBe(written);
  });
});
