// The date a build stamps on what it writes (the man pages' .TH, the SBOM's timestamp), the same for the
// same sources, as reproducible builds ask (https://reproducible-builds.org/docs/source-date-epoch/):
// SOURCE_DATE_EPOCH where it is set, else the date CHANGELOG.md gives the package's version
// (`## [0.1.0] - 2026-11-27`). Never the clock: two builds of one tree must write the same bytes.
import { readFileSync } from 'node:fs';

/** `{ date: Date, day: 'YYYY-MM-DD' }` for this tree's build. Throws where neither source says. */
export function buildDate(env = process.env, root = new URL('../', import.meta.url)) {
  const epoch = env.SOURCE_DATE_EPOCH;
  if (epoch !== undefined && epoch !== '') {
    if (!/^\d+$/.test(epoch)) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${epoch}"`);
    return stamp(new Date(Number(epoch) * 1000));
  }
  const { version } = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
  const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');
  const escaped = version.replace(/[.+]/g, '\\$&');
  const match = new RegExp(`^## \\[${escaped}\\] - (\\d{4}-\\d{2}-\\d{2})$`, 'm').exec(changelog);
  if (match === null)
    throw new Error(
      `CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" for package.json's version: add it, or set SOURCE_DATE_EPOCH`,
    );
  return stamp(new Date(`${match[1]}T00:00:00Z`));
}

function stamp(date) {
  return { date, day: date.toISOString().slice(0, 10) };
}
