/**
 * CSV that spreadsheets in every locale read as data: RFC 4180 quoting, a `;` quoted too (the separator of
 * many locales), and a formula start neutralised in every field of an order's row.
 */
import { describe, expect, it } from 'vitest';
import { csvField, csvRecord, orderCsvFields } from '../../../src/output/csv.js';
import { sampleOrder } from '../../helpers/sample-order.js';

describe('csvField', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    // A semicolon-splitting spreadsheet would start a new cell, and a formula, at `@SUM`.
    // Quoted, and the `@` after it neutralised: in that spreadsheet the quote is mid-cell and means nothing.
    ["ok;@SUM(1+1)*cmd|' /C calc'!A0", `"ok;'@SUM(1+1)*cmd|' /C calc'!A0"`],
    ['a;b', '"a;b"'],
  ])('%j → %s', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it.each(['=', '+', '-', '@', '\t', '\r'])('a field starting with %j is shown as text', (start) => {
    const field = csvField(`${start}1+2`);
    expect(field.replace(/^"/, '').startsWith(`'${start}`)).toBe(true);
  });
});

describe('csvField and plain numbers', () => {
  // A number is never a formula: a negative saving stays a number; what only looks like one is guarded.
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

describe('an order row', () => {
  it('guards every field a server or another client chose', () => {
    const order = sampleOrder({
      client_request_id: '=cmd',
      address: '+addr',
      status: '@status',
      failure: { code: '-1;x', message: 'm' },
    });
    const row = csvRecord(orderCsvFields(order));
    expect(row).toContain(",'=cmd,");
    expect(row).toContain(",'+addr,");
    expect(row).toContain(",'@status,");
    expect(row.endsWith(`,"'-1;x"\r\n`)).toBe(true);
  });
});
