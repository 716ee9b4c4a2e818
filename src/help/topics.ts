/**
 * The texts of the help topics, and their JSON form. One source for `energy help <topic>` and the man pages
 * (scripts/man.mjs). Bundled as dist/bin/topics.cjs and required only by `energy help <topic>`.
 */
import { TOOL_VARIABLES, OTHER_VARIABLES, type EnvironmentVariable } from '../config/environment.js';
import { EXIT_CODES } from './exit-codes.js';
import type { HelpTopic } from './topic-names.js';
import { FORMATTING, SERVICE } from './topic-texts.js';

/** Words joined into lines of at most `width` columns. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** Help is 80 columns wide (program.ts): a term, then its meaning wrapped beside or under it. */
function definitions(rows: readonly (readonly [string, string])[], termWidth: number): string[] {
  return rows.flatMap(([term, meaning]) => {
    if (term.length > termWidth)
      return [`  ${term}`, ...wrap(meaning, 80 - termWidth - 4).map((line) => `  ${' '.repeat(termWidth)}  ${line}`)];
    return wrap(meaning, 80 - termWidth - 4).map(
      (line, index) => `  ${(index === 0 ? term : '').padEnd(termWidth)}  ${line}`,
    );
  });
}

const variableRows = (list: readonly EnvironmentVariable[]) => list.map((v) => [v.name, v.about] as const);

const ENVIRONMENT_TEXT = [
  'Environment variables energy reads. An option on the command line wins over its',
  'variable, and a variable over the profile (energy config list says where each',
  'value comes from).',
  '',
  ...definitions(variableRows(TOOL_VARIABLES), 24),
  '',
  'Other variables:',
  '',
  ...definitions(variableRows(OTHER_VARIABLES), 24),
  '',
  'Secrets (the API secret, the TRON node key) are never taken from the command',
  "line, and are taken out of an --on-event hook's environment. More:",
  'docs/environment.md.',
  '',
].join('\n');

const EXIT_CODES_TEXT = [
  'Exit codes of energy, the same for every command:',
  '',
  ...EXIT_CODES.flatMap(([code, meaning]) =>
    wrap(meaning, 72).map((line, index) => `  ${index === 0 ? String(code).padStart(3) : '   '}  ${line}`),
  ),
  '',
  'With --json, the error is the last line on stderr: {"error":{"exit_code":…}}.',
  '',
].join('\n');

/** The text `energy help <topic>` prints, 80 columns wide. */
export function topicText(topic: HelpTopic): string {
  switch (topic) {
    case 'environment':
      return ENVIRONMENT_TEXT;
    case 'exit-codes':
      return EXIT_CODES_TEXT;
    case 'formatting':
      return FORMATTING;
    case 'service':
      return SERVICE;
  }
}

/** `energy help <topic> --json`: the lists as data; a topic of prose as its text. */
export function topicJson(topic: HelpTopic): unknown {
  switch (topic) {
    case 'environment':
      return {
        environment: TOOL_VARIABLES.map(({ name, about }) => ({ name, about })),
        other: OTHER_VARIABLES.map(({ name, about }) => ({ name, about })),
      };
    case 'exit-codes':
      return { exit_codes: EXIT_CODES.map(([code, meaning]) => ({ code, meaning })) };
    default:
      return { topic, text: topicText(topic) };
  }
}
