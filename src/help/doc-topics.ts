/**
 * The help topics are parts of the manual's pages (gh's help topics: one text for `gh help <topic>` and its
 * page): what a page holds between `<!-- help -->` and `<!-- /help -->` is `energy help <topic>` and the man
 * page's section of that name. Read from docs/ at build time only: scripts/bundle.mjs puts what this file
 * reads into dist/bin/topics.cjs, in its place, and scripts/man.mjs writes the sections from it.
 */
import { readFileSync } from 'node:fs';
import { parseBlocks, parseSpans, plainText, type Block } from './markdown.js';
import { renderText, wrap } from './markdown-text.js';
import type { HelpTopic } from './topic-names.js';

/** Each topic's page, as a path in the package (docs/ ships with it). */
export const TOPIC_PAGES: Readonly<Record<HelpTopic, string>> = {
  environment: 'docs/environment.md',
  'exit-codes': 'docs/exit-codes.md',
  formatting: 'docs/output.md',
  service: 'docs/service.md',
};

export interface TopicData {
  /** `energy help <topic>`, 80 columns. */
  readonly text: string;
  /** `energy help <topic> --json`. */
  readonly json: unknown;
}

/** The blocks a page marks as its help topic, in the page's order. */
export function topicBlocks(markdown: string, page: string): Block[] {
  const lines = markdown.split(/\r?\n/);
  const parts: string[][] = [];
  let open: string[] | undefined;
  for (const line of lines) {
    if (line.trim() === '<!-- help -->') {
      if (open !== undefined) throw new Error(`${page}: <!-- help --> inside a part already marked`);
      open = [];
    } else if (line.trim() === '<!-- /help -->') {
      if (open === undefined) throw new Error(`${page}: <!-- /help --> without its <!-- help -->`);
      parts.push(open);
      open = undefined;
    } else open?.push(line);
  }
  if (open !== undefined || parts.length === 0)
    throw new Error(`${page}: no part marked <!-- help --> … <!-- /help -->`);
  return parts.flatMap((part) => parseBlocks(part));
}

/** Where the whole page is: it ships in the package, beside the program. */
export const morePointer = (page: string) =>
  `${wrap(`More: ${page}, in the folder of the energy-cli package (npm root -g).`, 80).join('\n')}\n`;

function tables(blocks: readonly Block[]): (readonly (readonly string[])[])[] {
  return blocks.flatMap((block) => (block.kind === 'table' ? [block.rows] : []));
}

function topicJson(topic: HelpTopic, blocks: readonly Block[], text: string, page: string): unknown {
  const plain = (cell: string) => plainText(parseSpans(cell), page);
  if (topic === 'environment') {
    const [own = [], other = []] = tables(blocks);
    const rows = (list: readonly (readonly string[])[]) =>
      list.map(([name, about]) => ({ name: plain(name!), about: plain(about!) }));
    return { environment: rows(own), other: rows(other) };
  }
  if (topic === 'exit-codes') {
    const rows = tables(blocks)[0] ?? [];
    return { exit_codes: rows.map(([code, meaning]) => ({ code: Number(plain(code!)), meaning: plain(meaning!) })) };
  }
  return { topic, text };
}

/** A topic from its page's Markdown. */
export function topicFromPage(topic: HelpTopic, markdown: string): TopicData & { blocks: Block[] } {
  const page = TOPIC_PAGES[topic];
  const blocks = topicBlocks(markdown, page);
  const text = `${renderText(blocks, page)}\n${morePointer(page)}`;
  return { text, json: topicJson(topic, blocks, text, page), blocks };
}

/** Every topic, read from the pages beside this module's tree (the checkout; replaced in the bundle). */
export function readTopics(): Readonly<Record<HelpTopic, TopicData>> {
  const root = new URL('../../', import.meta.url);
  const read = (topic: HelpTopic) => {
    const { text, json } = topicFromPage(topic, readFileSync(new URL(TOPIC_PAGES[topic], root), 'utf8'));
    return { text, json };
  };
  return {
    environment: read('environment'),
    'exit-codes': read('exit-codes'),
    formatting: read('formatting'),
    service: read('service'),
  };
}
