/**
 * Man pages, written at build from the program's own help (scripts/man.mjs): energy.1 and one page per
 * command, listed in package.json's "man" and shipped in the tarball, so that `man energy` works after a
 * global install (npm links each listed page into <prefix>/share/man/man1).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, commandPath } from '../../src/app/program.js';
import { Context } from '../../src/commands/context.js';
import { isHelpTopic } from '../../src/help/topic-names.js';
import { describeWhere, hasCommand } from '../helpers/machine-needs.js';
import { repoRoot } from '../helpers/manual.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
const program = buildProgram(
  new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }),
  '0.0.0',
);
/** The commands a user sees in help: hidden ones and the help topics have no page of their own. */
function shown(command: Command): Command[] {
  const children = command.commands.filter(
    (child) => !(child as Command & { _hidden?: boolean })._hidden && !isHelpTopic(child.name()),
  );
  return [command, ...children.flatMap(shown)];
}
const expected = shown(program).map((command) => `./dist/man/${commandPath(command).replace(/ /g, '-')}.1`);
const page = (name: string) => readFileSync(join(repoRoot, 'dist/man', name), 'utf8');

describe('man pages', () => {
  it('are listed in package.json, energy.1 first and one per command, and shipped with the files', () => {
    expect(pkg.man[0]).toBe('./dist/man/energy.1');
    expect(pkg.man).toContain('./dist/man/energy-order-create.1');
    expect([...pkg.man].sort()).toEqual([...expected].sort());
    expect(pkg.files).toContain('dist/man/');
  });

  it('are all built, and nothing else is', () => {
    const built = readdirSync(join(repoRoot, 'dist/man')).map((name) => `./dist/man/${name}`);
    expect(built.sort()).toEqual([...pkg.man].sort());
  });

  it('are in the packed tarball', async () => {
    const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repoRoot,
    });
    const files = (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((file) => file.path);
    expect(files).toContain('dist/man/energy.1');
    expect(pkg.man.filter((name) => !files.includes(name.replace(/^\.\//, '')))).toEqual([]);
  });

  it('energy.1 carries the help topics as its sections, written from the same texts', () => {
    const root = page('energy.1');
    expect(root).toMatch(/^\.TH "ENERGY" "1" /);
    for (const section of ['ENVIRONMENT', 'EXIT STATUS', 'FORMATTING', 'SERVICE', 'COMMANDS', 'OPTIONS'])
      expect(root).toContain(`\n.SH ${section}\n`);
    expect(root).toContain('ENERGY_STATE_DIR');
    const section = (name: string) =>
      root.slice(root.indexOf(`\n.SH ${name}\n`), root.indexOf('\n.SH ', root.indexOf(`\n.SH ${name}\n`) + 1));
    expect(section('EXIT STATUS')).toContain('usage or invalid input: caught locally');
    expect(section('EXIT STATUS')).toContain('an order \\fB\\-\\-max\\-spend\\fR refused');
    for (const event of ['order_placed', 'recovered', 'address_recovered', 'delivery_failed', 'spend_limit_reached'])
      expect(section('SERVICE'), event).toContain(event);
    expect(section('FILES')).toContain('\\fIdist/THIRD_PARTY_NOTICES.md\\fR');
  });

  it('are dated by the version (CHANGELOG.md) or SOURCE_DATE_EPOCH, never the clock', () => {
    const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
    const changelog = readFileSync(join(repoRoot, 'CHANGELOG.md'), 'utf8');
    const epoch = process.env.SOURCE_DATE_EPOCH;
    const day =
      epoch !== undefined && epoch !== ''
        ? new Date(Number(epoch) * 1000).toISOString().slice(0, 10)
        : changelog
            .split('\n')
            .find((line) => line.startsWith(`## [${version}] - `))!
            .slice(-10);
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const name of pkg.man)
      expect(page(name.replace('./dist/man/', '')), name).toMatch(
        new RegExp(`^\\.TH "[A-Z-]+" "1" "${day}" "energy ${version}" "energy manual"\\n`),
      );
  });

  it('a command page lists the global options, as its --help does', () => {
    const balance = page('energy-balance.1');
    const globals = balance.slice(balance.indexOf('\n.SH GLOBAL OPTIONS\n'), balance.indexOf('\n.SH EXAMPLES\n'));
    for (const option of ['\\-\\-json', '\\-\\-timeout <duration>', '\\-\\-profile <name>'])
      expect(globals).toContain(`.TP\n\\fB${option}\\fR\n`);
    expect(page('energy.1')).not.toContain('.SH GLOBAL OPTIONS');
  });

  it('keep code within 80 columns in their source: at most 71 characters a line where man keeps lines as written', () => {
    for (const name of pkg.man) {
      let fill = true;
      const long: string[] = [];
      for (const line of page(name.replace('./dist/man/', '')).split('\n')) {
        if (line === '.nf') fill = false;
        else if (line === '.fi') fill = true;
        else if (!fill && line.replace(/\\\[u[0-9A-F]{4}\]|\\e/g, 'x').length > 71) long.push(line);
      }
      expect(long, name).toEqual([]);
    }
  });

  it('a command page has its synopsis, options and examples', () => {
    const create = page('energy-order-create.1');
    expect(create).toContain('.SH NAME\nenergy\\-order\\-create \\- rent energy');
    expect(create).toContain('.B energy order create\n');
    expect(create).toContain('\\fB\\-\\-max\\-total <trx>\\fR');
    expect(create).toContain('.SH EXAMPLES\n.nf\nenergy order create "$ADDR" --energy 65000 --hours 1 --wait\n');
  });

  it("a page's DESCRIPTION says more than its NAME line: a command's row of docs/commands.md, a group's commands", () => {
    const section = (text: string, name: string) => /\.SH NAME\n[^\n]* \\- ([^\n]*)\n/.exec(text)?.[1] ?? name;
    for (const name of pkg.man) {
      const text = page(name.replace('./dist/man/', ''));
      const description = /\.SH DESCRIPTION\n([\s\S]*?)\n\.SH /.exec(text)?.[1] ?? '';
      expect(description.trim(), name).not.toBe(`${section(text, name)}.`);
      expect(description, name).toMatch(/docs\/commands\.md lists every command|has a page of its own/);
    }
    expect(page('energy-ensure.1')).toMatch(/\.SH DESCRIPTION\n[^]*enough for n token\s+transfers/);
    expect(page('energy-order.1')).toContain('has a page of its own (COMMANDS)');
  });

  it('are plain roff: ASCII only, and no text line that roff would take for a request', () => {
    const requests = /^\.(TH|SH|SS|TP|PP|IP|RS|RE|B|nf|fi|nh|ad)( |$)/;
    for (const name of pkg.man) {
      const text = page(name.replace('./dist/man/', ''));
      expect(text, name).toMatch(/^[\x00-\x7f]*$/);
      const stray = text.split('\n').filter((line) => /^[.']/.test(line) && !requests.test(line));
      expect(stray, name).toEqual([]);
    }
  });
});

describe('the package manifest', () => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    engines: { node: string };
    scripts: Record<string, string>;
  };

  it('asks for the Node lines where require() of the library works, as docs/library.md promises', () => {
    expect(manifest.engines.node).toBe('^20.19.0 || >=22.12.0');
  });

  it('builds in prepack, and prepare only where dist/ is missing (the packed manifest has no prepare)', () => {
    expect(manifest.scripts.prepack).toBe('npm run build && node scripts/pack-manifest.mjs --disable');
    expect(manifest.scripts.postpack).toBe('node scripts/pack-manifest.mjs --enable');
    expect(manifest.scripts.prepare).toBe('node scripts/prepare.mjs');
    expect(readFileSync(join(repoRoot, 'scripts/prepare.mjs'), 'utf8')).toContain(
      "existsSync(new URL('../dist/bin/energy.cjs'",
    );
  });
});

describeWhere('man', hasCommand('man', ['--version']), 'man pages as man shows them', () => {
  it('fit 80 columns: MANWIDTH=80 man -l has no longer line, and no warning', async () => {
    for (const name of pkg.man) {
      const { stdout, stderr } = await promisify(execFile)('man', ['-l', join(repoRoot, name)], {
        env: {
          ...process.env,
          MANWIDTH: '80',
          MANPAGER: 'cat',
          PAGER: 'cat',
          LC_ALL: 'C.UTF-8',
          MAN_KEEP_FORMATTING: '',
        },
      });
      expect(stdout.split('\n').length, name).toBeGreaterThan(10);
      expect(
        stdout.split('\n').filter((line) => [...line].length > 80),
        name,
      ).toEqual([]);
      expect(stderr, name).toBe('');
    }
  });
});
