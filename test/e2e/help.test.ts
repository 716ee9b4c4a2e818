/** Help: `energy help <command…>`, unknown commands with --help, examples everywhere, 80 columns. */
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { Context } from '../../src/commands/context.js';
import { EXAMPLES } from '../../src/commands/examples.js';
import { buildProgram, commandPath } from '../../src/app/program.js';
import { isHelpTopic } from '../../src/help/topic-names.js';
import { baseEnv, runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { readPage } from '../helpers/manual.js';

const env = baseEnv('/nonexistent/energy-help');

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}
const program = buildProgram(
  new Context({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {} }),
  '0.0.0',
);
// The help topics are commands too, but their help is the topic: see below.
const paths = allCommands(program)
  .filter((command) => !isHelpTopic(command.name()))
  .map(commandPath);

describe('help', () => {
  it('shows the help of `create` for `energy help order create`', async () => {
    // Spawned: commander writes help to the process's own stdout.
    const viaHelp = await runCli(['help', 'order', 'create'], { env });
    const viaOption = await runCli(['order', 'create', '--help'], { env });
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: energy order create /);
    expect(viaHelp.stdout).toBe(viaOption.stdout);
  });

  it.each([
    ['nosuch', '--help'],
    ['order', 'nosuch', '-h'],
  ])('refuses an unknown command with help: %s %s', async (...args) => {
    const result = await runInProcess(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe("energy: error: unknown command 'nosuch'");
  });

  it('lists the help topics for `energy help <word>` that is neither a topic nor a command (as gh)', async () => {
    const result = await runInProcess(['help', 'nosuch'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      "energy: error: no help topic or command 'nosuch'\n" +
        'hint: help topics: environment, exit-codes, formatting, service; the commands: `energy --help`\n',
    );
  });

  it.each([['balance'], ['time'], ['order', 'create'], ['config', 'set']])(
    '`energy %s --help` lists the global options (gh: INHERITED FLAGS)',
    async (...command) => {
      const result = await runCli([...command, '--help'], { env });
      expect(result.code).toBe(0);
      const globals = result.stdout.slice(result.stdout.indexOf('\nGlobal Options:\n'));
      for (const option of ['--json', '--timeout <duration>', '--profile <name>', '--state-url <url>'])
        expect(globals).toMatch(new RegExp(`^  ${option.replace(/[<>]/g, '\\$&')} +\\S`, 'm'));
    },
  );

  it.each(paths)('%s has 1 to 3 examples, and its help fits 80 columns', async (path) => {
    const examples = EXAMPLES[path] ?? [];
    expect(examples.length).toBeGreaterThanOrEqual(1);
    expect(examples.length).toBeLessThanOrEqual(3);
    const result = await runCli([...path.split(' ').slice(1), '--help'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Examples:\n  $ ${examples[0]}`);
    const long = result.stdout.split('\n').filter((line) => line.length > 80);
    expect(long).toEqual([]);
  });

  it('keeps the root help of the fast path within 80 columns', async () => {
    const result = await runCli(['--help'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });
});

describe('help as people look for it', () => {
  it('explains every exit status with `energy help exit-codes`, listed in the root help', async () => {
    const topic = await runCli(['help', 'exit-codes'], { env });
    expect(topic.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 129, 130, 143])
      expect(topic.stdout).toMatch(new RegExp(`^ *${code}  \\S`, 'm'));
    expect(topic.stdout).toContain('rate limited: 429 still after the retries, or a Retry-After');
    const root = await runCli(['--help'], { env });
    expect(root.stdout).toContain('\n  exit-codes   what each exit status means\n');
    // A topic, not a command: not in the root's list of commands.
    expect(root.stdout.slice(0, root.stdout.indexOf('Help topics'))).not.toMatch(/^ {2}exit-codes/m);
  });

  it.each([
    [['help', 'exit-codes', '--json']],
    [['help', '--json', 'exit-codes']],
    [['exit-codes', '--json']],
    [['exit-codes', '--json', '--help']],
  ])('prints the exit codes as JSON: %j', async (args) => {
    const result = await runInProcess(args, env);
    expect(result.code, result.stderr).toBe(0);
    const rows = (JSON.parse(result.stdout) as { exit_codes: { code: number; meaning: string }[] }).exit_codes;
    expect(rows.map((row) => row.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 129, 130, 143]);
    expect(rows[2]!.meaning).toContain("the API's 400, 413, 415, 422");
    // An ensure order past --max-spend is exit 5 (reason spend_limit), so row 5 says so.
    expect(rows[5]!.meaning).toMatch(/--max-total exceeded, or an order --max-spend refused/);
  });

  it.each(['environment', 'exit-codes', 'formatting', 'service'])(
    '`energy help %s` prints the topic within 80 columns, listed in the root help, and as JSON',
    async (topic) => {
      const [viaHelp, direct, json, root] = await Promise.all([
        runCli(['help', topic], { env }),
        runCli([topic, '--help'], { env }),
        runCli(['help', topic, '--json'], { env }),
        runCli(['--help'], { env }),
      ]);
      expect(viaHelp.code, viaHelp.stderr).toBe(0);
      expect(viaHelp.stdout.length).toBeGreaterThan(300);
      expect(viaHelp.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
      expect(direct.stdout).toBe(viaHelp.stdout);
      expect(json.code).toBe(0);
      expect(typeof JSON.parse(json.stdout)).toBe('object');
      expect(root.stdout).toMatch(new RegExp(`^  ${topic} +\\S`, 'm'));
    },
  );

  it('`energy help service` names every event a hook can get, and says where the whole page is', async () => {
    const result = await runCli(['help', 'service'], { env });
    const events = ['order_placed', 'order_failed', 'low_balance', 'cycle_failed', 'recovered', 'address_failed'];
    for (const event of [...events, 'address_recovered', 'delivery_failed', 'spend_limit_reached'])
      expect(result.stdout, event).toMatch(new RegExp(`\\b${event}\\b`));
    expect(result.stdout).toMatch(/^More: docs\/service\.md, in the folder of the energy-cli package/m);
  });

  it('`ensure --help` says where the --max-spend ledger lives, with PostgreSQL too', async () => {
    const result = await runCli(['ensure', '--help'], { env });
    const option = result.stdout.slice(result.stdout.indexOf('--max-spend'), result.stdout.indexOf('-y, --yes'));
    expect(option.replace(/\s+/g, ' ')).toContain('state store: the state folder, or PostgreSQL with --state-url');
  });

  it('names the same HTTP statuses for each exit code in `help exit-codes` as docs/exit-codes.md', async () => {
    const topic = (await runCli(['help', 'exit-codes'], { env })).stdout;
    const docs = readPage('docs/exit-codes.md');
    const statuses = (text: string) => [...new Set([...text.matchAll(/\b([45]\d\d)\b/g)].map((m) => m[1]))].sort();
    const docsRow = (code: number) => new RegExp(`^\\| ${code} \\| (.*) \\|$`, 'm').exec(docs)![1]!;
    const topicRow = (code: number) =>
      new RegExp(`^ +${code}  ([\\s\\S]*?)\\n(?= +\\d+  |\\n)`, 'm').exec(topic)![1]!.replace(/\s+/g, ' ');
    // Code 2 names exactly the statuses the code maps to it (worked out from errors.ts by hand).
    expect(statuses(topicRow(2))).toEqual(['400', '413', '415', '422']);
    for (const code of [2, 3, 4, 5, 6])
      expect(statuses(topicRow(code)), `code ${code}`).toEqual(statuses(docsRow(code)));
  });

  it.each([
    [['order', 'create', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7', '--energy', 'x', '--hours', '1'], 'energy order create'],
    [['--profile', 'p', 'order', 'list', '--limit', '0'], 'energy order list'],
    [['order', 'nosuch'], 'energy order'],
    [['nosuch'], 'energy'],
  ])('names the help of the command a usage error is about: %j', async (args, command) => {
    const result = await runInProcess(args, env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`hint: see \`${command} --help\`\n`);
  });

  it('takes `--output json` (and --output=json) as --json, before or after the command', async () => {
    const expected = await runInProcess(['exit-codes', '--json'], env);
    for (const args of [
      ['exit-codes', '--output', 'json'],
      ['--output=json', 'exit-codes'],
    ]) {
      const result = await runInProcess(args, env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(expected.stdout);
    }
    // A usage error under --output json is a JSON line too.
    const refused = await runInProcess(['order', 'list', '--limit', '0', '--output', 'json'], env);
    expect(JSON.parse(refused.stderr.trim())).toMatchObject({ error: { exit_code: 2 } });
  });
});
