/** Building only the invoked command's subtree: the stand-ins must be the real commands' names, never run. */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { Context } from '../../src/commands/context.js';
import { buildProgram } from '../../src/app/program.js';

const build = (argv?: string[]) =>
  buildProgram(
    new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }),
    '0.0.0',
    argv,
  );
const count = (command: Command): number => 1 + command.commands.reduce((n, c) => n + count(c), 0);

describe('buildProgram', () => {
  it('names its stand-ins exactly as the commands they stand for', () => {
    const full = build().commands.map((c) => c.name());
    const lean = build(['time']).commands.map((c) => c.name());
    expect(lean).toEqual(full);
  });

  it('builds the invoked command whole, past global options and their values, and the rest as bare names', () => {
    const program = build(['--profile', 'order', '--timeout', '5', 'order', 'get', 'x']);
    const order = program.commands.find((c) => c.name() === 'order')!;
    expect(count(order)).toBe(count(build().commands.find((c) => c.name() === 'order')!));
    const time = program.commands.find((c) => c.name() === 'time')!;
    expect(time.options).toEqual([]);
    expect(count(program)).toBeLessThan(count(build()));
  });

  it.each([[['completion', 'bash']], [['help', 'order']], [['nosuch']], [['--json']], [['--', 'time']]])(
    'builds the whole tree for %j',
    (argv) => {
      expect(count(build(argv))).toBe(count(build()));
    },
  );
});
