// The project's rules, enforced by established tools (this replaces the regex checks of scripts/lint.mjs):
// - layering (which layer may import which): dependency-cruiser, .dependency-cruiser.cjs;
// - package ownership (decimal.js, node:http, node:https, node:tls, node:net each have their owners):
//   no-restricted-imports for static imports, no-restricted-syntax for import() and getBuiltinModule();
// - money never through a float: no-restricted-syntax on Number(), parseFloat and unary + of amount values;
// - stdout only from output/: no-restricted-properties and no-console;
// - no focused or skipped tests: @vitest/eslint-plugin;
// - files of at most 300 lines, command files of at most 150: max-lines;
// - error classes only in the errors modules (src/domain/errors.ts, cli-errors.ts, journal-errors.ts):
//   no-restricted-syntax on a class that extends an …Error.
// Unused exports are knip's job (knip.json); formatting is Prettier's (.prettierrc.json, `npm run format`).
import js from '@eslint/js';
import vitest from '@vitest/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Each package may be imported only by these files or folders (the style guide's "only importer" rules). */
const PACKAGE_OWNERS = {
  'decimal.js': ['src/domain/money.ts'],
  // The one module that does network I/O, with its proxy tunnel (the sandbox is a server, not a client).
  // The service's status server answers scrapes (a server, like the sandbox).
  'node:http': ['src/client/http.ts', 'src/client/proxy-tunnel.ts', 'src/sandbox/', 'src/service/status-server.ts'],
  'node:https': ['src/client/http.ts', 'src/client/proxy-tunnel.ts'],
  'node:tls': ['src/client/proxy-tunnel.ts'],
  // storage/pipe-stream.ts: a named pipe read through a net.Socket (libuv's pipe handle), not the network.
  'node:net': ['src/client/proxy-tunnel.ts', 'src/sandbox/', 'src/storage/pipe-stream.ts'],
};

/**
 * Areas of src/ that differ in what they may do. ESLint gives a file the options of the last block that
 * sets a rule, so each area gets one block with its whole list rather than one block per restriction.
 */
const AREAS = [
  'src/domain/money.ts',
  'src/output/',
  'src/client/http.ts',
  'src/client/proxy-tunnel.ts',
  'src/sandbox/',
  'src/service/status-server.ts',
  'src/storage/pipe-stream.ts',
  'src/app/cli.ts',
  'src/app/process-run.ts',
  // The homes of error classes (ERROR_HOMES).
  'src/domain/errors.ts',
  'src/domain/cli-errors.ts',
  'src/domain/journal-errors.ts',
  'src/client/http-failure.ts',
  'src/storage/file-lock.ts',
];
const glob = (area) => (area.endsWith('/') ? `${area}**/*.ts` : area);
const owns = (area, owners) =>
  owners.some((owner) => area === owner || (owner.endsWith('/') && area !== undefined && area.startsWith(owner)));

/** Names that hold amounts of TRX: these never go through Number(), parseFloat or unary +. */
const AMOUNT_NAME = '/(trx|amount|total|price|balance|available|held)/i';
const MONEY = [
  {
    selector: `CallExpression[callee.name='Number'][arguments.0.name=${AMOUNT_NAME}]`,
    message: 'Money through a float: amounts stay strings; compare and sum them with src/domain/money.ts.',
  },
  {
    selector: `CallExpression[callee.name='Number'][arguments.0.property.name=${AMOUNT_NAME}]`,
    message: 'Money through a float: amounts stay strings; compare and sum them with src/domain/money.ts.',
  },
  {
    selector: `UnaryExpression[operator='+'][argument.name=${AMOUNT_NAME}]`,
    message: 'Money through a float (unary +): amounts stay strings; use src/domain/money.ts.',
  },
  {
    selector: `UnaryExpression[operator='+'][argument.property.name=${AMOUNT_NAME}]`,
    message: 'Money through a float (unary +): amounts stay strings; use src/domain/money.ts.',
  },
  {
    selector:
      "CallExpression[callee.property.name='toFixed'][callee.object.type='CallExpression'][callee.object.callee.name=/^(Number|parseFloat)$/]",
    message: 'Number(x).toFixed() formats a float: amounts are shown as the API sends them.',
  },
  {
    selector:
      "CallExpression[callee.name='parseFloat'], CallExpression[callee.object.name='Number'][callee.property.name='parseFloat']",
    message: 'parseFloat: amounts stay strings (src/domain/money.ts); other numbers use Number() with a pattern check.',
  },
];

/**
 * Where a class that extends an error may be declared: the errors modules, and two low-level failures that
 * never reach a user as themselves (an HTTP exchange's HttpFailure, which the client turns into a
 * NetworkError; a lock's LockTimeoutError, which its callers turn into a ConflictError): each is tied to its
 * layer's own knowledge (network error codes, a lock holder) that the domain may not import.
 */
const ERROR_HOMES = [
  'src/domain/errors.ts',
  'src/domain/cli-errors.ts',
  'src/domain/journal-errors.ts',
  'src/client/http-failure.ts',
  'src/storage/file-lock.ts',
];
const ERROR_CLASSES = [
  {
    selector: 'ClassDeclaration[superClass.name=/Error$/], ClassExpression[superClass.name=/Error$/]',
    message:
      'An error class outside the errors module: declare it in src/domain/errors.ts (what the library throws) or src/domain/cli-errors.ts (what only the command line meets).',
  },
];

/** Loading code by a computed name would slip past every import rule. */
const STATIC_LOADING = [
  {
    selector: "ImportExpression[source.type!='Literal']",
    message: 'import() with a computed or template name: use a string literal so the import rules can see it.',
  },
  {
    selector:
      "CallExpression[callee.object.name='process'][callee.property.name='getBuiltinModule'][arguments.0.type!='Literal']",
    message: 'getBuiltinModule() with a computed name: use a string literal so the import rules can see it.',
  },
  { selector: "CallExpression[callee.name='require']", message: 'require() in an ES module: use import.' },
];

function packageRules(area) {
  const banned = Object.entries(PACKAGE_OWNERS).filter(([, owners]) => !owns(area, owners));
  const message = (name, owners) => `${name} belongs to ${owners.join(', ')}: only there may it be imported.`;
  return {
    imports: banned.map(([name, owners]) => ({ name, message: message(name, owners) })),
    syntax: banned.flatMap(([name, owners]) => [
      { selector: `ImportExpression[source.value='${name}']`, message: message(name, owners) },
      {
        selector: `CallExpression[callee.object.name='process'][callee.property.name='getBuiltinModule'][arguments.0.value='${name}']`,
        message: message(name, owners),
      },
    ]),
  };
}

/** One block per area (and one for the rest of src/), each with its complete lists. */
function areaBlock(area) {
  const { imports, syntax } = packageRules(area);
  const writesStdout =
    area === 'src/app/cli.ts' || area === 'src/app/process-run.ts' || area === 'src/output/' || area === 'src/sandbox/';
  return {
    files: area === undefined ? ['src/**/*.ts'] : [glob(area)],
    ...(area === undefined && { ignores: AREAS.map(glob) }),
    rules: {
      // Type-only imports load nothing: `import type { X } from 'node:net'` is allowed anywhere.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: imports.map((path) => ({ ...path, allowTypeImports: true })) },
      ],
      'no-restricted-syntax': [
        'error',
        ...syntax,
        ...MONEY,
        ...STATIC_LOADING,
        ...(ERROR_HOMES.includes(area) ? [] : ERROR_CLASSES),
      ],
      'no-restricted-properties': [
        'error',
        ...(writesStdout
          ? []
          : [
              { object: 'process', property: 'stdout', message: 'Only src/output/ writes to stdout: use the Printer.' },
            ]),
      ],
      'no-console': area === 'src/sandbox/' ? 'off' : 'error',
    },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.d.ts'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      // tsc (noUnusedLocals/Parameters) already reports these, with `_` prefixes allowed.
      '@typescript-eslint/no-unused-vars': 'off',
      // Matching control characters is the point where we do it (escaping text for a terminal).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // A command file parses options and hands data on: at most 150 lines (a longer one moves its parts down
    // into the layer below, or into files of its own, as order-*.ts and ensure-*.ts).
    files: ['src/commands/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 150, skipBlankLines: false, skipComments: false }] },
  },
  areaBlock(undefined),
  ...AREAS.map(areaBlock),
  {
    files: ['test/**/*.ts'],
    plugins: { vitest },
    rules: {
      'vitest/no-focused-tests': 'error',
      'vitest/no-disabled-tests': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='todo'][callee.object.name=/^(it|test|describe)$/]",
          message: '.todo( left in a test.',
        },
      ],
      // Test doubles read untyped JSON from real sockets.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
);
