// The layering of src/ (README, Development): dependencies point one way, and commands do not import each
// other. Checked by `npm run lint` (depcruise src). ESLint keeps import() and getBuiltinModule() to literal
// names, so that every import is visible here. Package ownership is ESLint's (eslint.config.js).

/** Layers a folder must not import from. */
const LAYERS = {
  // The rules of the field (money, addresses, portions, errors, printable text): no I/O, no other layer.
  domain: [
    'app',
    'batch',
    'client',
    'commands',
    'config',
    'ensure',
    'journal',
    'ordering',
    'output',
    'reports',
    'sandbox',
    'signing',
    'storage',
    'tron',
    'service',
    'state',
  ],
  signing: ['client', 'config', 'commands', 'output', 'sandbox', 'domain/errors\\.ts', 'service'],
  client: ['config', 'commands', 'output', 'sandbox', 'service'],
  config: ['commands', 'output', 'sandbox', 'service'],
  // Output takes the plain shapes the flows hand it: it imports none of them (batch, ordering).
  output: ['commands', 'config', 'sandbox', 'service', 'batch', 'ordering'],
  // The sandbox checks signatures with its own canonical string: a second opinion on src/signing, not a mirror.
  sandbox: ['commands', 'output', 'config', 'signing', 'service'],
  // Durable files and locks: plain file-system mechanics, no knowledge of the API or the CLI.
  storage: ['client', 'config', 'commands', 'output', 'sandbox', 'journal', 'ordering', 'service'],
  // The journal is local state: it never talks to the network and never prints.
  journal: ['client', 'commands', 'output', 'sandbox', 'ordering', 'service', 'state'],
  // The state store (the folder in folder/, or PostgreSQL in pg/): the journal and ensure's lock behind one
  // interface, which owns its types (claims, known accounts); below ensure/. The commands pick it, the flows get
  // what it opens.
  state: ['client', 'commands', 'output', 'sandbox', 'ordering', 'ensure', 'service', 'batch', 'reports', 'diagnose'],
  // Batches: reading, planning and placing many orders; printing is the command's.
  batch: ['commands', 'output', 'sandbox', 'config', 'service', 'state'],
  // Ordering flows shared by commands (send journaled, consent, follow): below commands, above client/journal.
  // It asks for consent through a `confirm` function it is given: no terminal, no output/.
  ordering: ['commands', 'sandbox', 'config', 'service', 'output', 'state'],
  // The TRON node client, beside the API client: its network I/O goes through src/client/http.ts.
  tron: ['config', 'commands', 'output', 'sandbox', 'signing', 'journal', 'ordering', 'ensure', 'service'],
  // ensure: read the chain, count what is in flight, buy through the journal; printing is the command's.
  // It asks for consent through a `confirm` function it is given, as ordering/ does: no terminal, no output/.
  ensure: ['commands', 'sandbox', 'config', 'service', 'output'],
  // The long-running service around ensure: metrics, health, event hooks; printing is the command's.
  service: ['commands', 'sandbox', 'config', 'output'],
  // doctor's checks: read config, call the API and the node through factories the command passes in.
  diagnose: ['commands', 'sandbox', 'service'],
  // The help topics' texts: plain text from the lists they describe (config/environment.ts), nothing that acts.
  help: [
    'app',
    'batch',
    'client',
    'commands',
    'ensure',
    'journal',
    'ordering',
    'output',
    'reports',
    'sandbox',
    'signing',
    'storage',
    'tron',
    'service',
    'diagnose',
  ],
  // Reports (spend): sums over the order list; printing is the command's.
  reports: ['commands', 'output', 'sandbox', 'config', 'journal', 'ordering', 'service'],
};

/** Command files any command may import: shared parsing, the context and the services it builds, not other verbs. */
const COMMAND_SHARED =
  '(context|command-services|services|service-env|arguments|duration-arguments|shell-words|examples)\\.ts';
/** Commands whose file composes parts of their own: the order, config and state groups' verbs, ensure's, sandbox's run. */
const COMMAND_GROUPS = ['order', 'config', 'ensure', 'state', 'sandbox'];

module.exports = {
  forbidden: [
    ...Object.entries(LAYERS).map(([layer, forbidden]) => ({
      name: `layer-${layer}`,
      comment: `src/${layer}/ must not depend on src/${forbidden.join(', src/')} (see the README, Development).`,
      severity: 'error',
      from: { path: `^src/${layer}/` },
      to: { path: `^src/(${forbidden.join('|')})(/|$)` },
    })),
    {
      name: 'nothing-imports-the-entry-points',
      comment: 'src/app/ (cli, main, program, fast path, version) is the top: nothing below it imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/app/' },
      to: { path: '^src/app/' },
    },
    {
      name: 'commands-do-not-import-commands',
      comment: 'Commands do not import each other: move shared flow down into client/ or config/.',
      severity: 'error',
      from: { path: '^src/commands/', pathNot: `^src/commands/(${COMMAND_GROUPS.join('|')})\\.ts$` },
      to: { path: '^src/commands/', pathNot: `^src/commands/${COMMAND_SHARED}$` },
    },
    // A command in several files composes its own (order-*.ts, config-*.ts, ensure-*.ts) and nothing else.
    ...COMMAND_GROUPS.map((group) => ({
      name: `${group}-composes-its-own-files-only`,
      comment: `src/commands/${group}.ts imports its own ${group}-*.ts files and the shared command files only.`,
      severity: 'error',
      from: { path: `^src/commands/${group}\\.ts$` },
      to: { path: '^src/commands/', pathNot: `^src/commands/(${COMMAND_SHARED}|${group}-[a-z-]+\\.ts)$` },
    })),
    {
      name: 'no-circular',
      comment:
        'No import circles, type-only ones included (tsPreCompilationDeps): move the shared shape down into a file both import.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment: 'A relative import that does not resolve cannot be checked.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true, path: '^\\.' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Sources import `./x.js` for `./x.ts` (NodeNext); with the tsconfig, that resolves as tsc does.
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
