/**
 * The shorter forms a column takes on a narrow terminal (see fit-table.ts). Each takes the cell as the full
 * form shows it and leaves anything it does not recognise as it is.
 */

/** An order id (a UUID) by its first 8 characters, as git and docker show ids; `order get` takes it. */
export function shortId(cell: string): string {
  return /^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(cell) ? cell.slice(0, 8) : cell;
}

const UUIDS = /\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** Free text with every order id in it shortened the same way (`bought 2b7c1f7e (pending)`). */
export function shortIdsIn(cell: string): string {
  return cell.replace(UUIDS, '$1');
}

const LOCAL_TIME = /^(\d{4})-(\d{2}-\d{2})T(\d{2}:\d{2})/;

/**
 * A local time as `ls -l` shows one: `11-23 09:15` within the current year, the date alone before it
 * (the seconds and the UTC offset are the terminal's own and say little at a glance).
 */
export function shortTime(cell: string, now = new Date()): string {
  const match = LOCAL_TIME.exec(cell);
  if (match === null) return cell;
  const [, year, monthDay, time] = match;
  return Number(year) === now.getFullYear() ? `${monthDay} ${time}` : `${year}-${monthDay}`;
}

/** A TRON address by its first and last six characters, which is how people compare them. */
export function shortAddress(cell: string, ellipsis: string): string {
  return /^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(cell) ? `${cell.slice(0, 6)}${ellipsis}${cell.slice(-6)}` : cell;
}

/** A URL without its scheme: `https://api.energy.example/v1` -> `api.energy.example/v1`. */
export function shortUrl(cell: string): string {
  return cell.replace(/^https?:\/\//, '');
}
