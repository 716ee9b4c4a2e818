/**
 * Every command in one shape (gh's `NewCmdX(f, runF)`): each command file exports a builder that takes the
 * context and an injectable run (and exports the run it uses by default), and a command line parses into the
 * options that run is given, with the services beside what was parsed; nothing runs but the run passed in. A command file without a row here, or
 * over 150 lines, fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { Context } from '../../../src/commands/context.js';
import { USDT_MAINNET } from '../../../src/tron/tokens.js';

const DIR = new URL('../../../src/commands/', import.meta.url);
const A = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const B = 'TPL66VK2gCXNCD7EJg9pgJRfqcRazjhUZY';
const ID = '3f0c9b1e-6a7d-4c2e-9f1a-2b3c4d5e6f70';

/** What a command uses that is not a command: shared parsing, the context and services, the examples. */
const NOT_COMMANDS = [
  'arguments.ts',
  'command-services.ts',
  'context.ts',
  'duration-arguments.ts',
  'examples.ts',
  'service-env.ts',
  'services.ts',
  'shell-words.ts',
];
/** Groups that only compose their verbs (their verbs are rows below). */
const GROUPS = ['config.ts', 'order.ts', 'state.ts'];
/** A command's parsing and its run in files of their own, beside its builder. */
const PARTS = ['ensure-options.ts', 'ensure-run.ts', 'sandbox-run.ts'];

type Run = (options: Record<string, unknown>) => Promise<void>;
type Builder = (ctx: Context, run: Run) => Command;

interface Row {
  file: string;
  builder: string;
  argv: string[];
  /** Some of what the command line must parse into. */
  parsed: Record<string, unknown>;
}

const ROWS: Row[] = [
  { file: 'address.ts', builder: 'addressCommand', argv: [A], parsed: { address: A } },
  {
    file: 'api.ts',
    builder: 'apiCommand',
    argv: ['POST', '/v1/energy/quotes', '-f', `address=${A}`, '-F', 'energy=65000'],
    parsed: {
      request: {
        method: 'POST',
        path: '/v1/energy/quotes',
        fields: [
          { key: 'address', json: `"${A}"`, text: A },
          { key: 'energy', json: '65000', text: '65000' },
        ],
        input: undefined,
      },
    },
  },
  { file: 'balance.ts', builder: 'balanceCommand', argv: [], parsed: {} },
  {
    file: 'completion.ts',
    builder: 'completionCommand',
    argv: ['fish', '--profiles'],
    parsed: { shell: 'fish', profiles: true, json: false },
  },
  { file: 'config-get.ts', builder: 'configGetCommand', argv: ['base-url'], parsed: { name: 'base-url' } },
  { file: 'config-get.ts', builder: 'configUnsetCommand', argv: ['api-key'], parsed: { name: 'api-key' } },
  { file: 'config-list.ts', builder: 'configListCommand', argv: [], parsed: {} },
  { file: 'config-profiles.ts', builder: 'configProfilesCommand', argv: [], parsed: {} },
  { file: 'config-profiles.ts', builder: 'configDeleteProfileCommand', argv: ['old'], parsed: { profile: 'old' } },
  { file: 'config-profiles.ts', builder: 'configPathCommand', argv: [], parsed: {} },
  {
    file: 'config-set.ts',
    builder: 'configSetCommand',
    argv: ['base-url', 'https://api.example.com'],
    parsed: { name: 'base-url', value: 'https://api.example.com' },
  },
  { file: 'doctor.ts', builder: 'doctorCommand', argv: [], parsed: { timeout: undefined, retries: undefined } },
  {
    file: 'ensure.ts',
    builder: 'ensureCommand',
    argv: [A, '--energy', '65000', '--hours', '1'],
    parsed: { run: expect.objectContaining({ addresses: [A], energy: 65_000, hours: 1 }) },
  },
  {
    file: 'estimate.ts',
    builder: 'estimateCommand',
    argv: ['transfer', '--from', A, '--to', B, '--amount', '5'],
    parsed: { from: A, to: B, token: USDT_MAINNET, amount: 5n },
  },
  { file: 'help-topic.ts', builder: 'helpTopicCommand', argv: [], parsed: { topic: 'exit-codes' } },
  { file: 'options.ts', builder: 'optionsCommand', argv: [], parsed: {} },
  {
    file: 'order-batch.ts',
    builder: 'orderBatchCommand',
    argv: ['orders.csv', '--concurrency', '8', '--dry-run'],
    parsed: {
      request: {
        file: 'orders.csv',
        format: undefined,
        concurrency: 8,
        yes: false,
        maxTotal: undefined,
        dryRun: true,
        placeWhatFits: false,
      },
    },
  },
  {
    file: 'order-create.ts',
    builder: 'orderCreateCommand',
    argv: [A, '--energy', '65000', '--hours', '1', '--yes'],
    parsed: { request: expect.objectContaining({ address: A, energy: 65_000, hours: 1, yes: true }) },
  },
  { file: 'order-drop.ts', builder: 'orderDropCommand', argv: ['topup-7'], parsed: { id: 'topup-7' } },
  { file: 'order-get.ts', builder: 'orderGetCommand', argv: ['3F0C9B1E'], parsed: { orderId: '3f0c9b1e' } },
  {
    file: 'order-list.ts',
    builder: 'orderListCommand',
    argv: ['--limit', '50', '--all', '--output', 'csv'],
    parsed: { limit: 50, all: true, output: 'csv' },
  },
  { file: 'order-pending.ts', builder: 'orderPendingCommand', argv: [], parsed: {} },
  {
    file: 'order-recover.ts',
    builder: 'orderRecoverCommand',
    argv: ['topup-7', '-y'],
    parsed: { id: 'topup-7', yes: true },
  },
  {
    file: 'order-wait.ts',
    builder: 'orderWaitCommand',
    argv: [ID, '--wait-timeout', '2m'],
    parsed: { orderId: ID, timeoutSeconds: 120 },
  },
  {
    file: 'quote.ts',
    builder: 'quoteCommand',
    argv: [A, '--energy', '65000', '--hours', '24'],
    parsed: { address: A, energy: 65_000, hours: 24 },
  },
  {
    file: 'sandbox.ts',
    builder: 'sandboxCommand',
    argv: ['--port', '0', '--no-save', '--balance', '5'],
    parsed: { port: 0, host: '127.0.0.1', save: false, rateLimit: true, balance: '5.000000', seedAddress: {} },
  },
  { file: 'spend.ts', builder: 'spendCommand', argv: ['--by', 'day'], parsed: { by: 'day' } },
  {
    file: 'state-import.ts',
    builder: 'stateImportCommand',
    argv: ['--from', '/srv/old'],
    parsed: { from: '/srv/old' },
  },
  { file: 'state-status.ts', builder: 'stateStatusCommand', argv: [], parsed: {} },
  { file: 'time.ts', builder: 'timeCommand', argv: [], parsed: {} },
];

function commandFiles(): string[] {
  return readdirSync(DIR).filter((name) => name.endsWith('.ts'));
}

async function builderOf(row: Row): Promise<Builder> {
  const module = (await import(new URL(row.file, DIR).href)) as Record<string, unknown>;
  const make = module[row.builder];
  if (row.builder === 'helpTopicCommand')
    return (ctx, run) => (make as (...a: unknown[]) => (ctx: Context) => Command)('exit-codes', 'exit codes', run)(ctx);
  return make as Builder;
}

describe('every command in one shape', () => {
  it('every command file has its rows: a builder with an injectable run', () => {
    const rowed = new Set(ROWS.map((row) => row.file));
    const shapeless = commandFiles().filter(
      (name) => !rowed.has(name) && ![...NOT_COMMANDS, ...GROUPS, ...PARTS].includes(name),
    );
    expect(shapeless).toEqual([]);
  });

  it.each(ROWS)('$builder has its run exported beside it, which a test can call with fakes', async (row) => {
    // `xCommand` and `xRun`, in the command's file or its own `-run.ts` (ensure-run.ts, sandbox-run.ts).
    const name = row.builder.replace(/Command$/, 'Run');
    const files = [row.file, row.file.replace(/\.ts$/, '-run.ts')].filter((file) => commandFiles().includes(file));
    const modules = await Promise.all(
      files.map(async (file) => (await import(new URL(file, DIR).href)) as Record<string, unknown>),
    );
    expect(modules.map((module) => typeof module[name])).toContain('function');
  });

  it('no command file is over 150 lines', () => {
    const long = commandFiles()
      .map((name) => ({ name, lines: readFileSync(new URL(name, DIR), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > 150);
    expect(long).toEqual([]);
  });

  it.each(ROWS)('$builder $argv', async (row) => {
    const ctx = new Context({
      stdout: new PassThrough(),
      stderr: new PassThrough(),
      stdin: new PassThrough(),
      env: {},
    });
    const seen: Record<string, unknown>[] = [];
    const command = (await builderOf(row))(ctx, async (options) => {
      seen.push(options);
    });
    await command.exitOverride().parseAsync(row.argv, { from: 'user' });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject(row.parsed);
    // The services ride with what was parsed: the printer of this run, nothing opened yet.
    expect(seen[0]!.printer).toBe(ctx.printer);
  });
});
