/**
 * One CSV record on one physical line, as RFC 4180 writes it: fields separated by commas, a field in double
 * quotes may hold commas and doubled quotes (`"a ""b"", c"`). What Excel, Python's csv module and this CLI's
 * own `--output csv` write. A line break inside quotes is not taken: no batch value can hold one, and a
 * batch line is one physical line, numbered as an editor shows it.
 */

export type CsvCells = { cells: string[] } | { problem: string };

export function csvCells(text: string): CsvCells {
  const cells: string[] = [];
  let at = 0;
  for (;;) {
    if (text[at] === '"') {
      let value = '';
      at += 1;
      for (;;) {
        const quote = text.indexOf('"', at);
        if (quote === -1) return { problem: 'a quoted field is not closed (a line break inside quotes is not taken)' };
        value += text.slice(at, quote);
        at = quote + 1;
        if (text[at] !== '"') break;
        value += '"';
        at += 1;
      }
      cells.push(value);
      if (at === text.length) return { cells };
      if (text[at] !== ',')
        return { problem: 'text after a closing quote (a field is either quoted whole or not at all)' };
      at += 1;
    } else {
      const comma = text.indexOf(',', at);
      const cell = comma === -1 ? text.slice(at) : text.slice(at, comma);
      if (cell.includes('"'))
        return { problem: 'a quote inside a field that does not start with one (quote the whole field)' };
      cells.push(cell);
      if (comma === -1) return { cells };
      at = comma + 1;
    }
  }
}
