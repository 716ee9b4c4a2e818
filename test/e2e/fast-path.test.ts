/**
 * `--version` and `--help` are answered without loading the program (src/app/fast-path.ts); these tests keep
 * that answer identical to what commander prints when the full program runs.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';

const env = baseEnv(join(mkdtempSync(join(tmpdir(), 'energy-fast-')), 'config'));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('fast path', () => {
  it.each(['--version', '-V'])('%s prints the package version', async (flag) => {
    const result = await runCli([flag], { env });
    expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it.each(['--help', '-h'])('%s prints exactly what commander prints for `energy help`', async (flag) => {
    const [fast, full] = await Promise.all([runCli([flag], { env }), runCli(['help'], { env })]);
    expect(fast.code).toBe(0);
    expect(full.code).toBe(0);
    expect(fast.stdout).toBe(full.stdout);
    expect(fast.stdout).toMatch(/^Usage: energy \[options\] \[command\]/);
    expect(fast.stdout).toMatch(
      /never from the command line\.\n\n.*energy help <command>\n.*--help\)\.\n\nHelp topics \(energy help <topic>, --json too\):\n {2}environment .*\n {2}exit-codes .*\n {2}formatting .*\n {2}service .*\n\nExamples:\n/,
    );
  });

  it('leaves anything more than the single flag (or --json with it) to the full program', async () => {
    const sub = await runCli(['order', '--help'], { env });
    expect(sub.stdout).toMatch(/^Usage: energy order/);
  });
});

describe('--json --version: the version as one JSON document', () => {
  it.each([
    [['--json', '--version']],
    [['--version', '--json']],
    [['--json', '-V']],
    // The full program: more words than the fast path answers.
    [['--profile', 'x', '--json', '--version']],
    [['--output', 'json', '--version']],
    [['order', 'list', '--version', '--json']],
  ])('energy %j', async (args) => {
    const result = await runCli(args, { env });
    expect(result).toEqual({ code: 0, stdout: `{"version":"${pkg.version}"}\n`, stderr: '' });
  });
});
