/**
 * `energy help environment` is written from one list (src/config/environment.ts): every `ENERGY_*` name in
 * src/ must be in it, so that a variable added to the code cannot be missing from the help, the man page
 * and docs/environment.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOL_VARIABLES } from '../../../src/config/environment.js';
import { topicJson, topicText } from '../../../src/help/topics.js';
import { readPage, repoRoot } from '../../helpers/manual.js';

/** Names of the form ENERGY_* in src/ that are not variables, and why. */
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

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );
}
const sources = sourceFiles(join(repoRoot, 'src')).map((file) => readFileSync(file, 'utf8'));
const namesInSource = new Set(sources.flatMap((text) => [...text.matchAll(/ENERGY_[A-Z_]+/g)].map((m) => m[0])));
const listed = TOOL_VARIABLES.map((variable) => variable.name);

describe('the environment variables energy reads', () => {
  it('finds the names in src/ (the scan can see them)', () => {
    expect(namesInSource).toContain('ENERGY_STATE_DIR');
    expect(namesInSource).toContain('ENERGY_TRON_API_KEY_FILE');
  });

  it('lists every ENERGY_* name of src/ that is not a constant', () => {
    const missing = [...namesInSource].filter((name) => !listed.includes(name) && !(name in NOT_VARIABLES));
    expect(missing).toEqual([]);
  });

  it('never reads a name it calls a constant from the environment', () => {
    const read = Object.keys(NOT_VARIABLES).filter((name) =>
      sources.some((text) => new RegExp(`env(\\.${name}\\b|\\[['"]${name}['"]\\])`).test(text)),
    );
    expect(read).toEqual([]);
  });

  it('lists each variable once, and only names src/ uses', () => {
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.filter((name) => !namesInSource.has(name))).toEqual([]);
  });

  it('prints every listed variable in `energy help environment`, its JSON and docs/environment.md', () => {
    const text = topicText('environment');
    const json = topicJson('environment') as { environment: { name: string }[] };
    const docs = readPage('docs/environment.md');
    for (const { name, about } of TOOL_VARIABLES) {
      expect(text).toMatch(new RegExp(`^  ${name}( |$)`, 'm'));
      expect(docs).toContain(`| \`${name}\` | ${about} |`);
    }
    expect(json.environment.map((variable) => variable.name)).toEqual(listed);
  });
});
