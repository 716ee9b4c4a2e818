/**
 * The layering rules (.dependency-cruiser.cjs) catch what they are for: planted imports in a throw-away
 * tree shaped like src/, checked by the real depcruise with the project's config.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let tree: string;
let report: string;

const FILES: Record<string, string> = {
  'src/config/paths.ts': 'export const dir = 1;\n',
  'src/output/printer.ts': 'export const printer = 1;\n',
  'src/domain/errors.ts': 'export const error = 1;\n',
  // Planted: a static import and a literal import() across layers.
  'src/client/planted.ts':
    "import { dir } from '../config/paths.js';\nexport const d = dir;\nexport const p = () => import('../output/printer.js');\n",
  'src/signing/planted.ts': "import { error } from '../domain/errors.js';\nexport const e = error;\n",
  // Planted: a flow reaching for the terminal's prompt; output reaching up for a flow's types.
  'src/ordering/planted.ts': "import { printer } from '../output/printer.js';\nexport const p = printer;\n",
  'src/batch/execute.ts': 'export type LineResult = { line: number };\n',
  'src/output/planted.ts': "import type { LineResult } from '../batch/execute.js';\nexport type R = LineResult;\n",
  // Planted: the sandbox verifying with the client's signer would only mirror it.
  'src/signing/index.ts': 'export const sign = 1;\n',
  'src/sandbox/planted.ts': "import { sign } from '../signing/index.js';\nexport const s = sign;\n",
  // Planted: a command importing another command; allowed: the shared arguments.
  'src/commands/quote.ts': 'export const quote = 1;\n',
  'src/commands/arguments.ts': 'export const args = 1;\n',
  'src/commands/balance.ts':
    "import { quote } from './quote.js';\nimport { args } from './arguments.js';\nexport const b = [quote, args];\n",
  // Allowed: the order group composes its verbs; planted: it imports another command.
  'src/commands/order-get.ts': 'export const get = 1;\n',
  'src/commands/order.ts':
    "import { get } from './order-get.js';\nimport { quote } from './quote.js';\nexport const o = [get, quote];\n",
  // Planted: a circle of type-only imports inside one folder.
  'src/ensure/shapes.ts': "import type { Need } from './need.js';\nexport type Item = { need: Need };\n",
  'src/ensure/need.ts': "import type { Item } from './shapes.js';\nexport type Need = { items: Item[] };\n",
  // Planted: the store reaching up for ensure's types (state/ stands below ensure/); allowed: ensure/ taking the
  // store's claim types.
  'src/state/address-claim.ts': 'export type AddressClaim = { mine: string[] };\n',
  'src/ensure/item.ts': 'export type Item = { address: string };\n',
  'src/state/planted.ts': "import type { Item } from '../ensure/item.js';\nexport type S = Item;\n",
  'src/ensure/run-ensure.ts':
    "import type { AddressClaim } from '../state/address-claim.js';\nexport type R = AddressClaim;\n",
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
    include: ['src'],
  }),
};

beforeAll(async () => {
  tree = mkdtempSync(join(tmpdir(), 'energy-layers-'));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  report = await new Promise<string>((resolve) => {
    execFile(
      process.execPath,
      [
        join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
        'src',
        '--config',
        join(root, '.dependency-cruiser.cjs'),
        '--output-type',
        'err',
      ],
      { cwd: tree },
      (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
    );
  });
}, 60_000);
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('layering (dependency-cruiser)', () => {
  it.each([
    ['a static import across layers', 'layer-client: src/client/planted.ts → src/config/paths.ts'],
    ['a literal import() across layers', 'layer-client: src/client/planted.ts → src/output/printer.ts'],
    ['signing importing errors.ts', 'layer-signing: src/signing/planted.ts → src/domain/errors.ts'],
    ['the sandbox importing the signer', 'layer-sandbox: src/sandbox/planted.ts → src/signing/index.ts'],
    ['an ordering flow importing output/', 'layer-ordering: src/ordering/planted.ts → src/output/printer.ts'],
    ['output importing a type from batch/', 'layer-output: src/output/planted.ts → src/batch/execute.ts'],
    [
      'a command importing another command',
      'commands-do-not-import-commands: src/commands/balance.ts → src/commands/quote.ts',
    ],
    [
      'the order group importing another command',
      'order-composes-its-own-files-only: src/commands/order.ts → src/commands/quote.ts',
    ],
    ['a circle of type-only imports', 'no-circular: src/ensure/need.ts → '],
    ['the state store importing a type from ensure/', 'layer-state: src/state/planted.ts → src/ensure/item.ts'],
  ])('reports %s', (_label, line) => {
    expect(report).toContain(line);
  });

  it.each([
    ['arguments.ts in a command', 'src/commands/arguments.ts'],
    ['an order verb in the order group', 'src/commands/order-get.ts'],
    ["ensure/ importing the state store's types", 'src/state/address-claim.ts'],
  ])('allows %s', (_label, target) => {
    expect(report).not.toContain(`→ ${target}`);
  });
});
