/** The manual's Markdown as help text and roff: expected output written out by hand. */
import { describe, expect, it } from 'vitest';
import { topicBlocks } from '../../../src/help/doc-topics.js';
import { linkTarget, parseBlocks, parseSpans } from '../../../src/help/markdown.js';
import { renderRoff } from '../../../src/help/markdown-roff.js';
import { codeLines, renderText } from '../../../src/help/markdown-text.js';

const page = 'docs/service.md';
const md = (text: string) => parseBlocks(text.split('\n'));

describe('reading the Markdown', () => {
  it('reads a list item with its paragraphs, code and table, and the next item', () => {
    const blocks = md(
      [
        '- **`--metrics`** serves it.',
        '  Second line.',
        '',
        '  | metric | what |',
        '  | --- | --- |',
        '  | `a{x="1"\\|"2"}` | counts |',
        '',
        '  ```sh',
        '  energy x',
        '  ```',
        '- two',
        '',
        'After.',
      ].join('\n'),
    );
    expect(blocks).toEqual([
      {
        kind: 'list',
        items: [
          [
            { kind: 'paragraph', text: '**`--metrics`** serves it. Second line.' },
            { kind: 'table', header: ['metric', 'what'], rows: [['`a{x="1"|"2"}`', 'counts']] },
            { kind: 'code', lang: 'sh', lines: ['energy x'] },
          ],
          [{ kind: 'paragraph', text: 'two' }],
        ],
      },
      { kind: 'paragraph', text: 'After.' },
    ]);
  });

  it('reads code, bold, links and escapes in a line', () => {
    expect(parseSpans('a `b c` **d `e`** [f `g`](x.md#h) \\| i')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'code', text: 'b c' },
      { kind: 'text', text: ' ' },
      {
        kind: 'strong',
        spans: [
          { kind: 'text', text: 'd ' },
          { kind: 'code', text: 'e' },
        ],
      },
      { kind: 'text', text: ' ' },
      {
        kind: 'link',
        spans: [
          { kind: 'text', text: 'f ' },
          { kind: 'code', text: 'g' },
        ],
        href: 'x.md#h',
      },
      { kind: 'text', text: ' | i' },
    ]);
  });

  it('says where a link points from the package root', () => {
    expect(linkTarget('ensure.md#what-it-does', page)).toBe('docs/ensure.md');
    expect(linkTarget('../README.md#install', page)).toBe('README.md');
    expect(linkTarget('#alerts', page)).toBeUndefined();
    expect(linkTarget('https://example.com/x', page)).toBe('https://example.com/x');
  });

  it('takes the parts between the marks only, and refuses a page without them or with one left open', () => {
    const text = 'Intro.\n<!-- help -->\n## A\n\nin\n<!-- /help -->\nout\n<!-- help -->\nlast\n<!-- /help -->\n';
    expect(topicBlocks(text, page)).toEqual([
      { kind: 'heading', level: 2, text: 'A' },
      { kind: 'paragraph', text: 'in' },
      { kind: 'paragraph', text: 'last' },
    ]);
    expect(() => topicBlocks('no marks', page)).toThrow(/no part marked/);
    expect(() => topicBlocks('<!-- help -->\nopen', page)).toThrow(/no part marked/);
  });
});

describe('as help text', () => {
  it('indents under a heading, wraps at 80, lists terms beside their meaning, points links at their file', () => {
    const text = renderText(
      md(
        [
          '## Watching',
          '',
          `See [Alerts](#alerts) and [ensure.md](ensure.md), ${'word '.repeat(14)}end.`,
          '',
          '| variable | what |',
          '| --- | --- |',
          '| `ENERGY_A` | the first |',
          '| `ENERGY_BB` | the second |',
        ].join('\n'),
      ),
      page,
    );
    expect(text).toBe(
      [
        'Watching',
        '',
        `  See Alerts [docs/service.md] and docs/ensure.md, ${'word '.repeat(6).trim()}`,
        `  ${'word '.repeat(8)}end.`,
        '',
        '  ENERGY_A   the first',
        '  ENERGY_BB  the second',
        '',
      ].join('\n'),
    );
  });

  it('continues a long shell line with a backslash, never inside quotes, and a comment with #', () => {
    const line = `energy order list --all --json | jq -r '.items[] | select(.failure) | "\\(.id)  \\(.failure.code)"'`;
    expect(codeLines([line], 'sh', 50)).toEqual([
      'energy order list --all --json | jq -r \\',
      `  '.items[] | select(.failure) | "\\(.id)  \\(.failure.code)"'`,
    ]);
    expect(codeLines(['# a comment that is longer than the width it is given here'], 'sh', 30)).toEqual([
      '# a comment that is longer',
      '# than the width it is given',
      '# here',
    ]);
    expect(codeLines(['{"a": "a long JSON line that no one may split"}'], 'json', 20)).toEqual([
      '{"a": "a long JSON line that no one may split"}',
    ]);
  });
});

describe('as roff', () => {
  it('fills paragraphs, tags table rows, keeps code, escapes what roff would read', () => {
    const roff = renderRoff(
      md(
        '.dot `--x` **y** [Run](fleet.md) ±\n\n| a | b |\n| --- | --- |\n| `m{r="1"\\|"2"}` | c |\n\n```sh\nx \\\n```',
      ),
      page,
    );
    expect(roff).toEqual([
      '.PP',
      '\\&.dot \\fB\\-\\-x\\fR \\fBy\\fR Run [docs/fleet.md] \\[u00B1]',
      '.TP',
      '\\fBm{r="1"|\\:"2"}\\fR',
      'c',
      '.PP',
      '.RS 2',
      '.nf',
      'x \\e',
      '.fi',
      '.RE',
    ]);
  });

  it("escapes a code line that starts with . or ' (man would read it as a request and drop it)", () => {
    const roff = renderRoff(md("```sh\n.env\n'quoted' word\nplain\n```"), page);
    expect(roff).toEqual(['.PP', '.RS 2', '.nf', '\\&.env', "\\&'quoted' word", 'plain', '.fi', '.RE']);
  });
});
