/**
 * The manual cannot fall behind the code: an event the service raises, an exit cause, a setting of the profile
 * store or an `ENERGY_*` variable that the code has and the manual (the help topics, written from docs/, and
 * the pages) does not name fails here. What the code has is read from the code's own text (the names it
 * writes), never from the help; the lists below say only what the scan must see and what is not a variable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTING_NAMES } from '../../../src/config/names.js';
import { ExitCode } from '../../../src/domain/errors.js';
import { topicJson, topicText } from '../../../src/help/topics.js';
import { manualText, readPage, repoRoot } from '../../helpers/manual.js';

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );
}
const sourceOf = (folder: string) => sourceFiles(join(repoRoot, folder)).map((file) => readFileSync(file, 'utf8'));
const sources = sourceOf('src');
const docs = readdirSync(join(repoRoot, 'docs')).map((name) => readPage(`docs/${name}`));

describe('events of the service', () => {
  // `{ event: 'order_placed', … }`: every event object the service builds names its event so.
  const events = new Set(
    sourceOf('src/service').flatMap((text) => [...text.matchAll(/\bevent: '([a-z_]+)'/g)].map((m) => m[1]!)),
  );

  it('are found in src/service (the scan can see them)', () => {
    for (const known of ['order_placed', 'low_balance', 'cycle_failed', 'recovered', 'spend_limit_reached'])
      expect(events).toContain(known);
  });

  it('are each named in `energy help service` (docs/service.md, the man page)', () => {
    const text = topicText('service');
    expect([...events].filter((event) => !new RegExp(`\\b${event}\\b`).test(text))).toEqual([]);
  });
});

describe('exit causes', () => {
  const rows = (topicJson('exit-codes') as { exit_codes: { code: number; meaning: string }[] }).exit_codes;
  const row = (code: number) => rows.find((r) => r.code === code)?.meaning ?? '';

  it('every exit code of the code has its row in `energy help exit-codes`, and no other', () => {
    expect(rows.map((r) => r.code).sort((a, b) => a - b)).toEqual(Object.values(ExitCode).sort((a, b) => a - b));
  });

  // ensure's reasons (src/ensure/ensure-types.ts): those that fail an address with an exit code of their own.
  const REASON_CODES: Record<string, readonly number[]> = {
    enough: [],
    within_tolerance: [],
    in_flight: [],
    bought: [],
    in_flight_elsewhere: [],
    would_buy: [],
    failed: [], // the code of what failed: any
    not_on_chain: [8],
    delivery_failed: [8],
    spend_limit: [5],
    claimed_elsewhere: [], // another host decides it: not a failure
  };
  const typeText = readPage('src/ensure/ensure-types.ts');
  const reasons = [.../export type EnsureReason =([^;]*);/.exec(typeText)![1]!.matchAll(/'([a-z_]+)'/g)].map(
    (m) => m[1]!,
  );

  it("every reason of ensure's is known here, and named in docs/ensure.md", () => {
    expect(reasons.length).toBeGreaterThanOrEqual(10);
    expect(reasons.filter((reason) => !(reason in REASON_CODES))).toEqual([]);
    const ensure = readPage('docs/ensure.md');
    expect(reasons.filter((reason) => !ensure.includes(`\`${reason}\``))).toEqual([]);
  });

  it("a reason with its own exit code is named in that code's row", () => {
    const missing = Object.entries(REASON_CODES).flatMap(([reason, codes]) =>
      codes.filter((code) => !row(code).includes(reason)).map((code) => `${reason} in ${code}`),
    );
    expect(missing).toEqual([]);
  });

  it("an option whose help gives its exit code (`refuse (exit 5)`) is named in that code's row", () => {
    // Each option description in src/commands that says "(exit N …" for the option it describes.
    const said = sources.flatMap((text) =>
      [...text.matchAll(/'(--[a-z-]+)[^']*',\s*'[^']*\(exit (\d+)/g)].map((m) => [m[1]!, Number(m[2])] as const),
    );
    expect(said.map(([option]) => option)).toEqual(expect.arrayContaining(['--max-total', '--max-spend', '--wait']));
    expect(said.filter(([option, code]) => !row(code).includes(option))).toEqual([]);
  });
});

describe('settings', () => {
  it('every setting of the profile store is named in the manual, and in the commands page', () => {
    const commands = readPage('docs/commands.md');
    expect(SETTING_NAMES.filter((name) => !commands.includes(`\`${name}\``))).toEqual([]);
  });

  /** Names of the form ENERGY_* in src/ that are not variables a user sets, and why. */
  const NOT_VARIABLES: Record<string, string> = {
    ENERGY_VERSION: 'a build-time constant (scripts/bundle.mjs)',
    ENERGY_ROOT_HELP: 'a build-time constant (scripts/bundle.mjs)',
    ENERGY_MAIN_BUNDLE: 'a build-time constant (scripts/bundle.mjs)',
    ENERGY_LIGHT_BUNDLE: 'a build-time constant (scripts/bundle.mjs)',
    ENERGY_PER_PORTION: "the sandbox's portion size",
    ENERGY_NEW_HOLDER: "the sandbox's energy of a transfer to a new holder",
    ENERGY_OUT_OF_RANGE: 'a sandbox validation code',
    ENERGY_NOT_MULTIPLE: 'a sandbox validation code',
  };
  const inSource = new Set(sources.flatMap((text) => [...text.matchAll(/ENERGY_[A-Z_]+/g)].map((m) => m[0])));
  const seams = [...inSource].filter((name) => name.startsWith('ENERGY_TEST_'));
  const variables = [...inSource].filter((name) => !(name in NOT_VARIABLES) && !seams.includes(name));
  const listed = (topicJson('environment') as { environment: { name: string }[] }).environment.map((v) => v.name);

  it('finds the names in src/ (the scan can see them)', () => {
    expect(inSource).toContain('ENERGY_STATE_DIR');
    expect(inSource).toContain('ENERGY_TRON_API_KEY_FILE');
    expect(seams).toContain('ENERGY_TEST_SIGNAL_AT_SWITCH');
  });

  it('every ENERGY_* variable of src/ is in `energy help environment`, once, and nothing else is', () => {
    expect(variables.filter((name) => !listed.includes(name))).toEqual([]);
    expect(listed.filter((name) => !inSource.has(name))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    for (const name of listed) expect(topicText('environment')).toMatch(new RegExp(`^  ${name}( |$)`, 'm'));
  });

  it('never reads a name it calls a constant from the environment', () => {
    const read = Object.keys(NOT_VARIABLES).filter((name) =>
      sources.some((text) => new RegExp(`env(\\.${name}\\b|\\[['"]${name}['"]\\])`).test(text)),
    );
    expect(read).toEqual([]);
  });

  it("test seams (ENERGY_TEST_*) are in CONTRIBUTING.md only, never in the user's manual or help", () => {
    const contributing = readPage('CONTRIBUTING.md');
    expect(seams.filter((name) => !contributing.includes(`\`${name}\``))).toEqual([]);
    const userFacing = [readPage('README.md'), readPage('CHANGELOG.md'), ...docs];
    expect(userFacing.filter((text) => /ENERGY_TEST_/.test(text))).toEqual([]);
    for (const topic of ['environment', 'service'] as const) expect(topicText(topic)).not.toMatch(/ENERGY_TEST_/);
    expect(manualText()).toContain('ENERGY_TEST_SIGNAL_AT_SWITCH'); // CONTRIBUTING is part of it
  });
});
