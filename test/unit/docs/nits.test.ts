/**
 * Small things a reader met (issue 46 item 13), each checked where it lives: the environment page names every
 * variable the code reads; the library's error is called EnergyError; a short id looked for on an account with
 * no orders says so; CONTRIBUTING's map names every folder of src/; the jq recipes and the exit-codes page say
 * `set -o pipefail`; the tarball `npm pack` leaves is ignored by git.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EnergyClient } from '../../../src/client/client.js';
import { EnergyError } from '../../../src/index.js';
import { resolveOrderId } from '../../../src/ordering/resolve-order-id.js';
import { readPage, repoRoot } from '../../helpers/manual.js';

/** The part of a page between its help marks. */
const helpPart = (page: string) => readPage(page).split('<!-- help -->')[1]!.split('<!-- /help -->')[0]!;

/** Every file under src/, with its path. */
function sources(dir = join(repoRoot, 'src')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

describe('the environment page', () => {
  it('names every environment variable the code reads (the test seams aside)', () => {
    const read = new Set<string>();
    for (const file of sources())
      for (const match of readFileSync(file, 'utf8').matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)\b/g)) read.add(match[1]!);
    const page = helpPart('docs/environment.md');
    const missing = [...read].filter((name) => !name.startsWith('ENERGY_TEST_') && !page.includes(name));
    expect(read.size).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });

  it('says that ENERGY_STATE_DIR holds the --max-spend ledgers', () => {
    const row = helpPart('docs/environment.md')
      .split('\n')
      .find((line) => line.startsWith('| `ENERGY_STATE_DIR`'))!;
    expect(row).toContain('--max-spend');
  });
});

it("the library's error is named EnergyError, as it is exported", () => {
  const error = new EnergyError('no', 2);
  expect(error.name).toBe('EnergyError');
  expect(String(error)).toBe('EnergyError: no');
});

it('a short id on an account with no orders says so, not "among the newest 0 orders"', async () => {
  const client = {
    async *orderPages() {
      yield { items: [], next_cursor: null };
    },
  } as unknown as EnergyClient;
  await expect(resolveOrderId(client, 'abcdef12', 'energy order list')).rejects.toThrow(
    'no order id starts with abcdef12: the account has no orders',
  );
});

it("CONTRIBUTING's layout map names every folder of src/, and every folder inside one (src/state/pg/)", () => {
  const map = readPage('CONTRIBUTING.md');
  const inside = (path: string): string[] =>
    readdirSync(join(repoRoot, path))
      .filter((name) => statSync(join(repoRoot, path, name)).isDirectory())
      .map((name) => `${path}/${name}`);
  const folders = inside('src').flatMap((folder) => [folder, ...inside(folder)]);
  expect(folders).toContain('src/state/pg');
  expect(folders.filter((folder) => !map.includes(`\n${folder}/ `))).toEqual([]);
});

it('the jq recipes and the exit-codes page say set -o pipefail', () => {
  const recipes = readPage('docs/output.md').split('## JSON and jq recipes')[1]!.split('<!-- /help -->')[0]!;
  const block = /```sh\n([\s\S]*?)```/.exec(recipes)![1]!;
  expect(block.split('\n')[0]).toBe('set -o pipefail');
  expect(helpPart('docs/exit-codes.md')).toContain('set -o pipefail');
  // The line is what bash makes of it: the pipeline fails with the first command's status.
  const status = spawnSync('bash', ['-c', 'set -o pipefail\nx=$(exit 7 | cat) || exit $?\necho "$x"']).status;
  expect(status).toBe(7);
});

it('the tarball npm pack leaves in the checkout is ignored by git', () => {
  const ignored = spawnSync('git', ['check-ignore', '-q', 'energy-cli-0.1.0.tgz'], { cwd: repoRoot }).status;
  expect(ignored).toBe(0);
  // And a source file is not (the rule is not a catch-all).
  expect(() => execFileSync('git', ['check-ignore', '-q', 'src/index.ts'], { cwd: repoRoot })).toThrow();
});
