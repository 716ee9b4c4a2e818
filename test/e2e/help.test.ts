/** Help: `energy help <command…>`, unknown commands with --help, examples everywhere, 80 columns. */
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { Context } from '../../src/commands/context.js';
import { EXAMPLES } from '../../src/commands/examples.js';
import { buildProgram, commandPath } from '../../src/app/program.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

const env = baseEnv('/nonexistent/energy-help');

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}
const program = buildProgram(
  new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }),
  '0.0.0',
);
const paths = allCommands(program).map(commandPath);

describe('help', () => {
  it('shows the help of `create` for `energy help order create`', async () => {
    // Spawned: commander writes help to the process's own stdout.
    const viaHelp = await runCli(['help', 'order', 'create'], { env });
    const viaOption = await runCli(['order', 'create', '--help'], { env });
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: energy order create /);
    expect(viaHelp.stdout).toBe(viaOption.stdout);
  });

  it.each([
    ['nosuch', '--help'],
    ['help', 'nosuch'],
    ['order', 'nosuch', '-h'],
  ])('refuses an unknown command with help: %s %s', async (...args) => {
    const result = await runInProcess(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe("energy: error: unknown command 'nosuch'");
  });

  it.each(paths)('%s has 1 to 3 examples, and its help fits 80 columns', async (path) => {
    const examples = EXAMPLES[path] ?? [];
    expect(examples.length).toBeGreaterThanOrEqual(1);
    expect(examples.length).toBeLessThanOrEqual(3);
    const result = await runCli([...path.split(' ').slice(1), '--help'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Examples:\n  $ ${examples[0]}`);
    const long = result.stdout.split('\n').filter((line) => line.length > 80);
    expect(long).toEqual([]);
  });

  it('keeps the root help of the fast path within 80 columns', async () => {
    const result = await runCli(['--help'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });
});
