/**
 * The lint rules catch what they are for: each violation the review planted (and the rest of the old
 * scripts/lint.mjs rules) is linted as a file at a real path in the tree, and must be reported.
 */
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: new URL('../../..', import.meta.url).pathname });
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const CASES: [label: string, file: string, code: string, rule: RegExp][] = [
  [
    'getBuiltinModule(node:http) in a command',
    'src/commands/planted.ts',
    "export const h = process.getBuiltinModule('node:http');",
    /no-restricted-syntax: node:http belongs to/,
  ],
  [
    "a double-quoted import of decimal.js in a command (chalk, the review's plant, is no longer a dependency)",
    'src/commands/planted.ts',
    'import Decimal from "decimal.js";\nexport const d = Decimal;',
    /no-restricted-imports: .*decimal\.js belongs to src\/domain\/money\.ts/,
  ],
  [
    'a template-literal import() across layers',
    'src/client/planted.ts',
    'export const m = () => import(`../config/store.js`);',
    /no-restricted-syntax: import\(\) with a computed or template name/,
  ],
  [
    'node:tls outside the proxy tunnel',
    'src/config/planted.ts',
    "import tls from 'node:tls';\nexport const t = tls;",
    /no-restricted-imports: .*node:tls belongs to src\/client\/proxy-tunnel\.ts/,
  ],
  [
    'decimal.js by import() outside money.ts',
    'src/client/planted.ts',
    "export const d = () => import('decimal.js');",
    /no-restricted-syntax: decimal\.js belongs to src\/domain\/money\.ts/,
  ],
  [
    'node:https outside http.ts',
    'src/sandbox/planted.ts',
    "import { request } from 'node:https';\nexport const r = request;",
    /no-restricted-imports: .*node:https belongs to/,
  ],
  [
    'Number() of an amount',
    'src/output/planted.ts',
    'export const f = (order: { total_trx: string }) => Number(order.total_trx) > 5;',
    /no-restricted-syntax: Money through a float/,
  ],
  [
    'Number() of an amount variable',
    'src/commands/planted.ts',
    'export const f = (maxTotal: string) => Number(maxTotal);',
    /no-restricted-syntax: Money through a float/,
  ],
  [
    'parseFloat',
    'src/commands/planted.ts',
    'export const f = (x: string) => parseFloat(x);',
    /no-restricted-syntax: parseFloat/,
  ],
  [
    'unary + of an amount',
    'src/client/planted.ts',
    'export const f = (a: { available_trx: string }) => +a.available_trx;',
    /no-restricted-syntax: Money through a float \(unary \+\)/,
  ],
  [
    'Number(v).toFixed(6)',
    'src/output/planted.ts',
    'export const f = (v: string) => Number(v).toFixed(6);',
    /no-restricted-syntax: Number\(x\)\.toFixed\(\) formats a float/,
  ],
  [
    'process.stdout outside output/',
    'src/commands/planted.ts',
    "export const f = () => process.stdout.write('x');",
    /no-restricted-properties: .*Only src\/output\/ writes to stdout/,
  ],
  [
    'console.log outside the sandbox',
    'src/client/planted.ts',
    "export const f = () => console.log('x');",
    /no-console/,
  ],
  ['a file over 300 lines', 'src/client/planted.ts', `${'export const a = 1;\n'.repeat(301)}`, /max-lines/],
  [
    'it.only',
    'test/unit/planted.test.ts',
    "import { it } from 'vitest';\nit.only('x', () => undefined);",
    /vitest\/no-focused-tests/,
  ],
  [
    'describe.skip',
    'test/unit/planted.test.ts',
    "import { describe } from 'vitest';\ndescribe.skip('x', () => undefined);",
    /vitest\/no-disabled-tests/,
  ],
  [
    'it.todo',
    'test/unit/planted.test.ts',
    "import { it } from 'vitest';\nit.todo('x');",
    /no-restricted-syntax: \.todo\( left in a test/,
  ],
];

describe('lint rules', () => {
  it.each(CASES)('reports %s', async (_label, file, code, rule) => {
    const found = await problems(file, code);
    expect(
      found.some((text) => rule.test(text)),
      found.join('\n'),
    ).toBe(true);
  });

  it.each([
    [
      'node:http in the sandbox',
      'src/sandbox/planted.ts',
      "import { createServer } from 'node:http';\nexport const s = createServer;",
    ],
    ['decimal.js in money.ts', 'src/domain/money.ts', "export const d = () => import('decimal.js');"],
    [
      'a type-only import of node:net',
      'src/client/planted.ts',
      "import type { LookupFunction } from 'node:net';\nexport type L = LookupFunction;",
    ],
    ['Number() of a count', 'src/commands/planted.ts', 'export const f = (limit: string) => Number(limit);'],
  ])('allows %s', async (_label, file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
