/** The readable lines (key/value, notes, --verbose, status, prompts) in the locale's character set. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Printer } from '../../../src/output/printer.js';
import { confirm } from '../../../src/output/prompt.js';
import type { Terminal } from '../../../src/output/terminal.js';

function terminal(env: NodeJS.ProcessEnv) {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  const stdin = new PassThrough();
  const out = { stdout: '', stderr: '' };
  stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const term: Terminal = { stdout, stderr, stdin, env: { NO_COLOR: '1', ...env } };
  return { term, stdin, out };
}

const ASCII = { LANG: 'C' };
const UTF8 = { LANG: 'en_US.UTF-8' };

describe('Printer under a locale that is not UTF-8', () => {
  it('writes ASCII stand-ins in key/value blocks, notes, verbose and status lines', async () => {
    const { term, out } = terminal(ASCII);
    const printer = new Printer(term, false);
    await printer.keyValue([['wait…', '≥ 1 → 2']]);
    printer.note('energy: waiting…');
    printer.verbose('energy: it’s → here');
    printer.status('batch: 1/2…');
    expect(out.stdout).toContain('wait...  >= 1 -> 2');
    expect(out.stderr).toContain('energy: waiting...\n');
    expect(out.stderr).toContain("energy: it's -> here\n");
    expect(out.stderr).toContain('batch: 1/2...');
    expect(out.stderr + out.stdout).not.toMatch(/[^\x00-\x7f]/);
  });

  it('keeps the characters under UTF-8', async () => {
    const { term, out } = terminal(UTF8);
    const printer = new Printer(term, false);
    await printer.keyValue([['a', '≥ 1']]);
    printer.note('energy: waiting…');
    expect(out.stdout).toContain('≥ 1');
    expect(out.stderr).toContain('waiting…');
  });

  it('keeps them exact in --json notes, whatever the locale', () => {
    const { term, out } = terminal(ASCII);
    new Printer(term, true).note('energy: waiting…');
    expect(JSON.parse(out.stderr)).toEqual({ note: { message: 'waiting…' } });
  });

  it('asks a question in ASCII', async () => {
    const { term, stdin, out } = terminal(ASCII);
    const answer = confirm(term, 'place 2 orders → 7.4 TRX…?');
    stdin.write('y\n');
    await expect(answer).resolves.toBe(true);
    expect(out.stderr).toContain('place 2 orders -> 7.4 TRX...? [y/N]');
  });
});
