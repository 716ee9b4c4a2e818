#!/usr/bin/env node
// Writes the man pages into dist/man/ from the program's own help (tsc output, as scripts/bundle.mjs renders
// the root help): energy.1, with the help topics as its ENVIRONMENT, EXIT STATUS, FORMATTING and SERVICE
// sections, and one page per command (energy-order-create.1). package.json's "man" lists them, so that
// `man energy` works after a global install; test/e2e/man-pages.test.ts keeps that list and the tree in step.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const { buildProgram, commandPath } = await import('../dist/app/program.js');
const { Context } = await import('../dist/commands/context.js');
const { EXAMPLES } = await import('../dist/commands/examples.js');
const { HELP_TOPICS } = await import('../dist/help/topic-names.js');
const { topicText } = await import('../dist/help/topics.js');

const program = buildProgram(
  new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }),
  pkg.version,
);

/** Text made safe for roff: backslashes, a dot or quote at the start of a line, characters beyond ASCII. */
const text = (value) =>
  value
    .replace(/\\/g, '\\e')
    .replace(/^([.'])/gm, '\\&$1')
    .replace(/[^\x00-\x7f]/gu, (char) => `\\[u${char.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
/** Option names and commands, where a hyphen is a real minus (copy-paste from the page works). */
const literal = (value) => text(value).replace(/-/g, '\\-');
const pageName = (command) => commandPath(command).replace(/ /g, '-');
const isTopic = (command) => Object.hasOwn(HELP_TOPICS, command.name());
const visible = (command) => command.commands.filter((c) => !c._hidden && !isTopic(c));

function page(command) {
  const help = command.createHelp();
  const name = pageName(command);
  const path = commandPath(command);
  const lines = [
    `.TH "${name.toUpperCase()}" "1" "" "energy ${pkg.version}" "energy manual"`,
    '.SH NAME',
    `${literal(name)} \\- ${text(command.description())}`,
    '.SH SYNOPSIS',
    `.B ${literal(path)}`,
    literal(help.commandUsage(command).split(' ').slice(path.split(' ').length).join(' ')),
    '.SH DESCRIPTION',
    text(command.description()) + '.',
  ];
  const args = help.visibleArguments(command);
  if (args.length > 0) {
    lines.push('.SH ARGUMENTS');
    for (const argument of args)
      lines.push('.TP', `\\fI${literal(help.argumentTerm(argument))}\\fR`, text(help.argumentDescription(argument)));
  }
  const options = help.visibleOptions(command);
  if (options.length > 0) {
    lines.push('.SH OPTIONS');
    for (const option of options)
      lines.push('.TP', `\\fB${literal(help.optionTerm(option))}\\fR`, text(help.optionDescription(option)));
  }
  const children = visible(command);
  if (children.length > 0) {
    lines.push('.SH COMMANDS');
    for (const child of children)
      lines.push('.TP', `\\fB${literal(pageName(child))}\\fR(1)`, text(child.description()));
  }
  if (command.parent === null) {
    const sections = {
      environment: 'ENVIRONMENT',
      'exit-codes': 'EXIT STATUS',
      formatting: 'FORMATTING',
      service: 'SERVICE',
    };
    for (const [topic, title] of Object.entries(sections))
      lines.push(
        `.SH ${title}`,
        `(also \\fBenergy help ${topic}\\fR)`,
        '.PP',
        '.nf',
        text(topicText(topic)).trimEnd(),
        '.fi',
      );
  }
  const examples = EXAMPLES[path] ?? [];
  if (examples.length > 0) lines.push('.SH EXAMPLES', '.nf', ...examples.map((e) => text(e)), '.fi');
  const seeAlso =
    command.parent === null
      ? children.map((c) => `${pageName(c)}(1)`)
      : [`${pageName(command.parent)}(1)`, 'energy(1)'];
  lines.push(
    '.SH SEE ALSO',
    [...new Set(seeAlso)].map((s) => `\\fB${literal(s.replace(/\(1\)$/, ''))}\\fR(1)`).join(', '),
  );
  return `${lines.join('\n')}\n`;
}

const pages = [];
const walk = (command) => {
  pages.push([`${pageName(command)}.1`, page(command)]);
  for (const child of visible(command)) walk(child);
};
walk(program);
const folder = new URL('../dist/man/', import.meta.url);
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
for (const [file, content] of pages) writeFileSync(new URL(file, folder), content);
