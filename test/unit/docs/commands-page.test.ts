/**
 * docs/commands.md names every command of the live command tree and every option of each: a command or an
 * option added without its row (or word in its row) fails here. The tree is the program's own
 * (src/app/program.ts), built whole; the page's table is read row by row.
 */
import type { Command, Option } from 'commander';
import { expect, it } from 'vitest';
import { buildProgram } from '../../../src/app/program.js';
import { Context } from '../../../src/commands/context.js';
import { readPage } from '../../helpers/manual.js';

const program = buildProgram(
  new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }),
  '0.0.0',
);

/** Every command below the root, with its words (`order create`), leaves and groups alike. */
function commands(command: Command, path: string[] = []): { path: string; command: Command }[] {
  return command.commands.flatMap((child) => {
    const words = [...path, child.name()];
    return [{ path: words.join(' '), command: child }, ...commands(child, words)];
  });
}

/** The table's rows, as their two cells' text. */
const rows = readPage('docs/commands.md')
  .split('\n')
  .filter((line) => line.startsWith('| `energy '))
  .map((line) => line.replace(/\\\|/g, '/'));

/** The row that names `path`: `energy <path>` starts a command in its first cell, or a `·`-list of its group names it. */
function rowOf(path: string): string | undefined {
  const words = path.split(' ');
  const named = (row: string) => {
    const first = row.split(' | ')[0]!;
    if (first.includes(`\`energy ${path}\``) || first.includes(`\`energy ${path} `)) return true;
    const group = words.slice(0, -1).join(' ');
    const last = words.at(-1)!;
    return group !== '' && first.includes(`\`energy ${group} `) && new RegExp(`· \`${last}[ \`]`).test(first);
  };
  return rows.find(named);
}

const all = commands(program).filter(({ command }) => !(command as unknown as { _hidden?: boolean })._hidden);
const visibleOptions = (command: Command) =>
  (command.options as Option[]).filter((option) => !option.hidden && option.long !== undefined);

it('has a row for every command of the tree', () => {
  const leaves = all.filter(({ command }) => command.commands.length === 0).map(({ path }) => path);
  expect(leaves.length).toBeGreaterThan(20);
  expect(leaves.filter((path) => rowOf(path) === undefined)).toEqual([]);
});

it("names every option of each command in the command's row", () => {
  const missing = all.flatMap(({ path, command }) => {
    const row = rowOf(path);
    if (row === undefined) return [];
    return visibleOptions(command)
      .map((option) => option.long!)
      .filter((long) => !new RegExp(`${long}(?![\\w-])`).test(row))
      .map((long) => `${path} ${long}`);
  });
  expect(missing.join('\n')).toBe('');
});
