import { describe, expect, it } from 'vitest';
import { detectFormat, LineParser } from '../../../src/batch/parse-line.js';

const RULES = { energyPerPortion: 1000, maxEnergy: 5_000_000, hours: [1, 3, 24] };
const A = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const parse = (parser: LineParser, text: string, number = 2) => parser.parse({ number, text });

describe('LineParser', () => {
  it.each([
    ['address,energy,hours', `${A},65000,1`, undefined],
    ['hours,address,energy', `3,${A},2000`, undefined],
    ['address,energy,hours,client_request_id', `${A},65000,24,pay-1`, 'pay-1'],
    ['address,energy,hours,client_request_id', `${A},65000,24,`, undefined],
    // What Excel and Python's csv module write: quoted fields, a doubled quote inside one.
    ['"address","energy","hours"', `"${A}","65000","24"`, undefined],
    ['address,energy,hours,client_request_id', `${A},65000,24,"pay-1"`, 'pay-1'],
    // `order list --output csv` and --json name the hours duration_hours; the other columns are ignored.
    [
      'id,client_request_id,address,energy,duration_hours,total_trx,status,lifecycle_final,delivery_final,created_at,updated_at,failure_code',
      `2b7c1f7e-3f3a-4f1e-9d8c-0a5b6c7d8e9f,pay-2,${A},65000,24,2.600000,"a,b",true,true,2026-11-20T12:00:00.000Z,2026-11-20T12:00:00.000Z,`,
      'pay-2',
    ],
  ])('reads a CSV line under the header %s', (head, line, id) => {
    const parser = new LineParser('csv', 'f.csv', RULES);
    expect(parse(parser, head, 1)).toBeUndefined();
    expect(parse(parser, line)).toMatchObject({ line: 2, address: A, clientRequestId: id });
  });

  it.each([
    ['address,energy', 'the header lacks hours'],
    ['address,energy,hours,notes', 'unknown column "notes"'],
    ['address,energy,hours,hours', 'a column appears twice'],
    ['address,energy,hours,duration_hours', 'a column appears twice in the header (hours and duration_hours are one)'],
    ['"address,energy,hours', 'a quoted field is not closed'],
  ])('refuses the header %s', (head, message) => {
    expect(() => parse(new LineParser('csv', 'f.csv', RULES), head, 1)).toThrow(message);
  });

  it.each([
    [`${A},65000`, '2 fields, but the header has 3'],
    [`"${A}"x,65000,1`, 'text after a closing quote'],
    [`${A}",65000,1`, 'a quote inside a field that does not start with one'],
    [`"${A},65000,1`, 'a quoted field is not closed'],
    [`"${A},65000",1`, '2 fields, but the header has 3'],
    [`,65000,1`, 'the address is missing'],
    [`${A},0,1`, 'energy must be a positive whole number'],
    [`${A},6000000,1`, 'energy 6,000,000 is too large: at most 5,000,000'],
    [`${A},1500,1`, 'not a multiple of the portion, 1,000'],
    [`${A},1000,2`, 'hours 2 is not offered: use one of 1, 3, 24'],
    [`${A.slice(0, -1)}u,1000,1`, 'is not a TRON address'],
  ])('refuses the CSV line %s, naming file and line', (line, message) => {
    const parser = new LineParser('csv', 'f.csv', RULES);
    parse(parser, 'address,energy,hours', 1);
    expect(() => parse(parser, line, 7)).toThrow(
      new RegExp(`^f\\.csv, line 7: .*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*: nothing was bought$`),
    );
  });

  it('reads NDJSON with integers in plain digits, and refuses unknown keys and non-objects', () => {
    const parser = new LineParser('ndjson', 'stdin', RULES);
    expect(parse(parser, JSON.stringify({ address: A, energy: 2000, hours: 3 }))).toMatchObject({
      energy: 2000,
      hours: 3,
    });
    expect(() => parse(parser, JSON.stringify({ address: A, energy: 2000, hours: 1, memo: 'x' }))).toThrow(
      'unknown key "memo"',
    );
    // What every --json output writes: duration_hours, and beside it keys that are not the order's input.
    const plan = {
      line: 2,
      client_request_id: 'p-1',
      plan: 'order',
      address: A,
      energy: 2000,
      duration_hours: 24,
      total_trx: null,
    };
    expect(parse(parser, JSON.stringify(plan))).toMatchObject({ hours: 24, clientRequestId: 'p-1' });
    expect(() => parse(parser, JSON.stringify({ address: A, energy: 2000, hours: 1, duration_hours: 1 }))).toThrow(
      'hours and duration_hours are one field',
    );
    expect(() => parse(parser, `{"address":"${A}","energy":2000,"duration_hours":1e0}`)).toThrow(
      'duration_hours must be a JSON number in plain digits',
    );
    expect(() => parse(parser, '[1,2]')).toThrow('not a JSON object');
    expect(() => parse(parser, JSON.stringify({ address: A, energy: 2000.5, hours: 1 }))).toThrow(
      'energy must be a JSON number in plain digits (no exponent, decimal point or sign), not 2000.5',
    );
  });

  // One rule with the command line (`--energy 1e5` is refused there): plain digits, as written.
  it.each([
    [
      `{"address":"${A}","energy":1e5,"hours":1}`,
      'energy must be a JSON number in plain digits (no exponent, decimal point or sign), not 1e5',
    ],
    [`{"address":"${A}","energy":65000.0,"hours":1}`, 'not 65000.0'],
    [
      `{"address":"${A}","energy":2000,"hours":1E0}`,
      'hours must be a JSON number in plain digits (no exponent, decimal point or sign), not 1E0',
    ],
    [`{"address":"${A}","energy":-2000,"hours":1}`, 'not -2000'],
    [
      `{"address":"${A}","energy":"65000","hours":1}`,
      'energy must be a JSON number in plain digits (e.g. 65000), not the string "65000"',
    ],
    [
      `{"address":"${A}","energy":2000,"hours":"1"}`,
      'hours must be a JSON number in plain digits (e.g. 1), not the string "1"',
    ],
    [`{"address":"${A}","energy":null,"hours":1}`, 'not null'],
    [`{"address":"${A}","energy":0,"hours":1}`, 'energy must be a positive whole number in plain digits, not 0'],
    // JSON.parse keeps the last of two equal keys: so does the check of how it was written.
    [`{"address":"${A}","energy":2000,"hours":1,"energy":1e3}`, 'not 1e3'],
    // A huge number whose last digits look fine is still refused as a whole.
    [`{"address":"${A}","energy":${'9'.repeat(500)}65000,"hours":1}`, 'energy must be a positive whole number'],
  ])('refuses the NDJSON line %s', (line, message) => {
    expect(() => parse(new LineParser('ndjson', 'stdin', RULES), line)).toThrow(message);
  });

  it('takes the number as written even next to strings that look like keys and numbers', () => {
    const line = `{"address":"${A}", "client_request_id":"energy:1e5", "energy" : 2000, "hours":1}`;
    expect(parse(new LineParser('ndjson', 'stdin', RULES), line)).toMatchObject({ energy: 2000, hours: 1 });
  });

  it.each([
    [`${A}, 65000,1`, 'energy must be a positive whole number in plain digits, not " 65000" (a leading space)'],
    [`${A},65000 ,1`, 'not "65000 " (a trailing space)'],
    [`${A},65000, 1 `, 'hours " 1 " (a leading space and a trailing space) is not offered'],
    [` ${A},65000,1`, `the address " ${A}" (a leading space) contains white space`],
  ])('shows a CSV value with a space around it quoted, and names the space: %s', (line, message) => {
    const parser = new LineParser('csv', 'f.csv', RULES);
    parse(parser, 'address,energy,hours', 1);
    expect(() => parse(parser, line)).toThrow(message);
  });

  it("refuses USDT's contract as a receiver, with the hint, like order create (no request needed)", () => {
    const parser = new LineParser('csv', 'f.csv', RULES);
    parse(parser, 'address,energy,hours', 1);
    const usdt = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    expect(() => parse(parser, `${usdt},65000,1`, 4)).toThrow(
      expect.objectContaining({
        message: `f.csv, line 4: ${usdt} is a smart contract: TRON does not delegate energy to contract accounts, so no rental can reach it: nothing was bought`,
        hint: expect.stringContaining('not for the token contract'),
      }),
    );
  });

  it('counts each line without an id that asks for the same thing: its occurrence, from the second pass', () => {
    const texts = [
      'address,energy,hours,client_request_id',
      `${A},65000,1,`,
      `${A},2000,1,`,
      `${A},65000,1,own-id`,
      `${A},65000,1,`,
    ];
    const check = new LineParser('csv', 'f.csv', RULES);
    const first = texts.map((text, i) => parse(check, text, i + 1));
    expect(first.slice(1).map((line) => line!.occurrence)).toEqual([0, 0, 0, 0]);
    expect([...check.repeats!.candidates]).toEqual([`${A}\n65000\n1`]);
    const again = new LineParser('csv', 'f.csv', RULES, check.repeats!.candidates);
    const lines = texts.map((text, i) => parse(again, text, i + 1));
    expect(lines.slice(1).map((line) => line!.occurrence)).toEqual([1, 1, 0, 2]);
  });

  it('skips blank lines', () => {
    expect(parse(new LineParser('ndjson', 'x', RULES), '   ')).toBeUndefined();
  });
});

describe('detectFormat', () => {
  it.each([
    ['{"address":"T"}', '', 'ndjson'],
    ['address,energy,hours', '', 'csv'],
    ['{"address":"T"}', 'list.csv', 'csv'],
    ['address,energy,hours', 'list.jsonl', 'ndjson'],
  ])('%s in "%s" is %s', (first, name, format) => {
    expect(detectFormat(first, name)).toBe(format);
  });
});
