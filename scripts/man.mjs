#!/usr/bin/env node
// Writes the man pages into dist/man/ from the program's own help (tsc output, as scripts/bundle.mjs renders
// the root help): energy.1, with the help topics as its ENVIRONMENT, EXIT STATUS, FORMATTING and SERVICE
// sections (the same parts of docs/ as `energy help <topic>`, src/help/doc-topics.ts), and one page per
// command (energy-order-create.1), each with the root's options as GLOBAL OPTIONS. package.json's "man" lists
// them, so that `man energy` works after a global install; test/e2e/man-pages.test.ts keeps that list and the
// tree in step. Text is filled by man at the reader's width, and code kept within 80 columns; the date is the
// build's (SOURCE_DATE_EPOCH, or the version's in CHANGELOG.md), so the same tree writes the same pages.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { buildDate } from './build-date.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const { buildProgram, commandPath } = await import('../dist/app/program.js');
const { Context } = await import('../dist/commands/context.js');
const { EXAMPLES } = await import('../dist/commands/examples.js');
const { HELP_TOPICS } = await import('../dist/help/topic-names.js');
const { TOPIC_PAGES, topicFromPage } = await import('../dist/help/doc-topics.js');
const { renderRoff, roffLiteral: literal, roffText: text } = await import('../dist/help/markdown-roff.js');
const { codeLines } = await import('../dist/help/markdown-text.js');
const { parseBlocks } = await import('../dist/help/markdown.js');

const program = buildProgram(
  new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }),
  pkg.version,
);
const { day } = buildDate();

const pageName = (command) => commandPath(command).replace(/ /g, '-');
const isTopic = (command) => Object.hasOwn(HELP_TOPICS, command.name());
const visible = (command) => command.commands.filter((c) => !c._hidden && !isTopic(c));
const optionList = (help, options) =>
  options.flatMap((option) => [
    '.TP',
    `\\fB${literal(help.optionTerm(option))}\\fR`,
    text(help.optionDescription(option)),
  ]);

/** The help topics as sections of energy.1, from the same parts of the same pages as `energy help <topic>`. */
const SECTIONS = {
  environment: 'ENVIRONMENT',
  'exit-codes': 'EXIT STATUS',
  formatting: 'FORMATTING',
  service: 'SERVICE',
};
function topicSection(topic) {
  const page = TOPIC_PAGES[topic];
  const { blocks } = topicFromPage(topic, readFileSync(new URL(`../${page}`, import.meta.url), 'utf8'));
  return [
    `.SH ${SECTIONS[topic]}`,
    `(also \\fBenergy help ${topic}\\fR; the whole page: ${page})`,
    ...renderRoff(blocks, page),
  ];
}

/** Where the package's other texts are, after a global install (npm root -g). */
const FILES = [
  '.SH FILES',
  'The package\\(aqs folder, \\fI$(npm root \\-g)/energy\\-cli\\fR after \\fBnpm install \\-\\-global\\fR, holds:',
  ...[
    ['docs/', 'the manual, a Markdown page per concern; the help topics are parts of it'],
    ['README.md', 'the start: install, first quote, first order'],
    ['CHANGELOG.md', 'what changed in each version'],
    ['LICENSE', 'the licence (MIT)'],
    ['dist/THIRD_PARTY_NOTICES.md', 'the packages the program carries, with their licences'],
    ['dist/sbom.cdx.json', 'the same packages as a CycloneDX SBOM'],
  ].flatMap(([file, about]) => ['.TP', `\\fI${literal(file)}\\fR`, about]),
];

/**
 * DESCRIPTION: what the command does as docs/commands.md says it (the reference's row, longer than NAME's
 * one line, with where the manual says more); a group's page points at its commands.
 */
const REFERENCE = 'docs/commands.md';
const referenceRows = parseBlocks(readFileSync(new URL(`../${REFERENCE}`, import.meta.url), 'utf8').split('\n'))
  .filter((block) => block.kind === 'table')
  .flatMap((table) => table.rows);
function description(command, path) {
  if (visible(command).length > 0 || command.parent === null)
    return [
      `${text(command.description())}.`,
      `Each command of \\fB${literal(path)}\\fR has a page of its own (COMMANDS).`,
    ];
  const words = path.split(' ');
  const [group, last] = [words.slice(0, -1).join(' '), words.at(-1)];
  const row = referenceRows.find(([first = '']) => {
    if (first.includes(`\`${path}\``) || first.includes(`\`${path} `)) return true;
    return first.includes(`\`${group} `) && new RegExp(`· \`${last}[ \`]`).test(first);
  });
  if (row === undefined)
    throw new Error(`${REFERENCE} has no row for ${path}: the man page takes its DESCRIPTION from it`);
  return [...renderRoff([{ kind: 'paragraph', text: row[1] }], REFERENCE), `(${REFERENCE} lists every command.)`];
}

function page(command) {
  const help = command.createHelp();
  const name = pageName(command);
  const path = commandPath(command);
  const lines = [
    `.TH "${name.toUpperCase()}" "1" "${day}" "energy ${pkg.version}" "energy manual"`,
    // No hyphenation, left-adjusted: option names, metrics and paths are copied from the page as they are.
    '.nh',
    '.ad l',
    '.SH NAME',
    `${literal(name)} \\- ${text(command.description())}`,
    '.SH SYNOPSIS',
    `.B ${literal(path)}`,
    literal(help.commandUsage(command).split(' ').slice(path.split(' ').length).join(' ')),
    '.SH DESCRIPTION',
    ...description(command, path),
  ];
  const args = help.visibleArguments(command);
  if (args.length > 0) {
    lines.push('.SH ARGUMENTS');
    for (const argument of args)
      lines.push('.TP', `\\fI${literal(help.argumentTerm(argument))}\\fR`, text(help.argumentDescription(argument)));
  }
  const options = help.visibleOptions(command);
  if (options.length > 0) lines.push('.SH OPTIONS', ...optionList(help, options));
  // The root's options, as commander's showGlobalOptions prints them in --help (gh's INHERITED FLAGS).
  const globals = command.parent === null ? [] : help.visibleGlobalOptions(command);
  if (globals.length > 0) lines.push('.SH GLOBAL OPTIONS', ...optionList(help, globals));
  const children = visible(command);
  if (children.length > 0) {
    lines.push('.SH COMMANDS');
    for (const child of children)
      lines.push('.TP', `\\fB${literal(pageName(child))}\\fR(1)`, text(child.description()));
  }
  if (command.parent === null) lines.push(...Object.keys(SECTIONS).flatMap(topicSection), ...FILES);
  const examples = EXAMPLES[path] ?? [];
  if (examples.length > 0) lines.push('.SH EXAMPLES', '.nf', ...codeLines(examples, 'sh').map((e) => text(e)), '.fi');
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
