/** The root command: global options and the command groups. Nothing here does I/O. */
import { Command, Option } from 'commander';
import { addressCommand } from '../commands/address.js';
import { apiCommand } from '../commands/api.js';
import { retryCount } from '../commands/arguments.js';
import { seconds } from '../commands/duration-arguments.js';
import { balanceCommand } from '../commands/balance.js';
import { completionCommand } from '../commands/completion.js';
import { configCommand } from '../commands/config.js';
import { doctorCommand } from '../commands/doctor.js';
import type { Context } from '../commands/context.js';
import type { GlobalOptions } from '../commands/shell-words.js';
import { estimateCommand } from '../commands/estimate.js';
import { ensureCommand } from '../commands/ensure.js';
import { examplesHelp } from '../commands/examples.js';
import { helpTopicCommand } from '../commands/help-topic.js';
import { optionsCommand } from '../commands/options.js';
import { orderCommand } from '../commands/order.js';
import { quoteCommand } from '../commands/quote.js';
import { sandboxCommand } from '../commands/sandbox.js';
import { spendCommand } from '../commands/spend.js';
import { stateCommand } from '../commands/state.js';
import { timeCommand } from '../commands/time.js';
import { UsageError } from '../domain/errors.js';
import { HELP_TOPICS, isHelpTopic } from '../help/topic-names.js';

/** Columns of help text: fixed, like git's, so that help reads the same everywhere. */
export const HELP_WIDTH = 80;

/** The top-level commands, by the name each one gives itself. */
const COMMANDS = {
  time: timeCommand,
  balance: balanceCommand,
  options: optionsCommand,
  quote: quoteCommand,
  order: orderCommand,
  address: addressCommand,
  estimate: estimateCommand,
  ensure: ensureCommand,
  spend: spendCommand,
  config: configCommand,
  doctor: doctorCommand,
  state: stateCommand,
  sandbox: sandboxCommand,
  completion: completionCommand,
  api: apiCommand,
  ...Object.fromEntries(
    Object.entries(HELP_TOPICS).map(([topic, summary]) => [
      topic,
      helpTopicCommand(topic as keyof typeof HELP_TOPICS, summary),
    ]),
  ),
} as const;

/** The root help's list of topics, as gh's "HELP TOPICS": the topics are hidden from the list of commands. */
const TOPICS_HELP = Object.entries(HELP_TOPICS)
  .map(([topic, summary]) => `  ${topic.padEnd(13)}${summary}`)
  .join('\n');

/**
 * The program. Given `argv`, only the invoked command's subtree is built: the other commands are
 * name-only stand-ins that never run, which saves a few milliseconds of every start. Without `argv`, for
 * help, completion, an unknown command or `help <command>`, the whole tree is built.
 */
export function buildProgram(ctx: Context, version: string, argv?: readonly string[]): Command {
  const program = new Command('energy')
    .description('Rent TRON energy through the Energy API v1')
    .version(version, '-V, --version')
    .option('--profile <name>', 'config profile (env ENERGY_PROFILE; default "default")')
    .option('--base-url <url>', 'API base URL (env ENERGY_BASE_URL)')
    .option('--tron-node <url>', 'TRON node for address, estimate and ensure (env ENERGY_TRON_NODE; default TronGrid)')
    .option(
      '--state-url <url>',
      'shared state in PostgreSQL, postgresql://… (env ENERGY_STATE_URL; default the state folder)',
    )
    .option('--json', 'print one JSON document on stdout')
    .option('--verbose', 'print each request and response line on stderr (credentials redacted)')
    .addOption(
      new Option('--timeout <duration>', 'time allowed for each request, e.g. 10s (default 30s)').argParser(seconds),
    )
    .addOption(new Option('--retries <n>', 'retries after a failed attempt (default 3)').argParser(retryCount))
    .addHelpText(
      'after',
      `\nCredentials come from the profile or ENERGY_API_KEY / ENERGY_API_SECRET\n(TRON node: ENERGY_TRON_API_KEY), never from the command line.\n\nA command's options and examples: energy help <command>\n(or energy <command> --help).\n\nHelp topics (energy help <topic>, --json too):\n${TOPICS_HELP}`,
    )
    .showSuggestionAfterError()
    .helpCommand(false)
    .hook('preAction', (_root, action) => {
      ctx.globals = action.optsWithGlobals<GlobalOptions>();
    });
  const invoked = argv === undefined ? undefined : invokedCommand(program, argv);
  for (const [name, make] of Object.entries(COMMANDS)) {
    program.addCommand(invoked === undefined || invoked === name ? make(ctx) : new Command(name), {
      hidden: isHelpTopic(name),
    });
  }
  applyToAll(program, (command) => {
    const examples = examplesHelp(commandPath(command));
    if (examples !== undefined) command.addHelpText('after', examples);
    // main.ts decides the exit code and prints errors in one format (text, or JSON with --json).
    // Help wraps at a fixed width, on a terminal as in a pipe, so that the fast path's copy is exact.
    // Every command's help lists the root's options too (gh's "INHERITED FLAGS"): `balance --help` shows --json.
    command.configureHelp({ showGlobalOptions: true });
    command.exitOverride().configureOutput({
      outputError: () => undefined,
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
    });
  });
  return program;
}

/** The top-level command `argv` runs, when it is one whose subtree alone is enough to run it. */
function invokedCommand(program: Command, argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (word === '--') return undefined;
    if (word.startsWith('-')) {
      const option = program.options.find((o) => o.long === word || o.short === word);
      if (option?.required === true || option?.optional === true) i += 1;
      continue;
    }
    // Completion describes the whole tree; anything else unknown (help, a typo) needs every name and subtree.
    return word !== 'completion' && Object.hasOwn(COMMANDS, word) ? word : undefined;
  }
  return undefined;
}

/** `energy order create` for the create command. */
export function commandPath(command: Command): string {
  return command.parent === null ? command.name() : `${commandPath(command.parent)} ${command.name()}`;
}

/**
 * `--output json` (or `--output=json`), as aws and others write it, is `--json` for every command; `order
 * list` and `spend` take `--output table|csv` besides. Words after `--` are left alone.
 */
export function outputJsonArguments(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (word === '--') return [...words, ...argv.slice(i)];
    if (word === '--output=json') words.push('--json');
    else if (word === '--output' && argv[i + 1] === 'json') {
      words.push('--json');
      i += 1;
    } else words.push(word);
  }
  return words;
}

/** `energy order create` for the deepest command that `argv` names (options and their values skipped). */
export function invokedPath(program: Command, argv: readonly string[]): string {
  let command = program;
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i]!;
    if (word === '--') break;
    if (word.startsWith('-')) {
      if (takesValue(command, word)) i += 1;
      continue;
    }
    const next = findCommand(command, word);
    if (next === undefined) break;
    command = next;
  }
  return commandPath(command);
}

/**
 * What commander does not do for us: `energy help order create` is the help of `create` (commander shows
 * the group's), and `energy nosuch --help` is an unknown command (commander shows the root help, exit 0).
 * Returns the arguments to parse.
 */
export function helpArguments(program: Command, argv: readonly string[]): string[] {
  // `energy -v` alone is the version, as for node and npm (-v is no other option here).
  const words = argv.length === 1 && argv[0] === '-v' ? ['-V'] : [...argv];
  const asksHelp = (list: readonly string[]) => list.some((word) => word === '--help' || word === '-h');
  let command = program;
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (word === '--') break;
    if (word.startsWith('-')) {
      if (takesValue(command, word)) i += 1;
      continue;
    }
    if (command.commands.length === 0) break;
    if (word === 'help' && command === program) {
      words.splice(i, 1);
      // `energy help exit-codes` runs the topic (with --json as data); `help <command>` is its --help.
      const topic = words.slice(i).find((w) => !w.startsWith('-'));
      // gh lists its topics for a word that is neither a topic nor a command.
      if (topic !== undefined && !isHelpTopic(topic) && findCommand(program, topic) === undefined)
        throw new UsageError(`no help topic or command '${topic}'`, {
          hint: `help topics: ${Object.keys(HELP_TOPICS).join(', ')}; the commands: \`energy --help\``,
        });
      if (!asksHelp(words) && (topic === undefined || !isHelpTopic(topic))) words.push('--help');
      i -= 1;
      continue;
    }
    // `energy exit-codes --help` is the topic too, not a help about it.
    if (command === program && isHelpTopic(word))
      return words.filter((w, index) => index <= i || (w !== '--help' && w !== '-h'));
    const next = findCommand(command, word);
    if (next === undefined) {
      if (asksHelp(words))
        throw new UsageError(`unknown command '${word}'`, { hint: `see \`${commandPath(command)} --help\`` });
      break;
    }
    command = next;
  }
  return words;
}

function findCommand(command: Command, word: string): Command | undefined {
  return command.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

/** True when `flag` is an option of `command` or an ancestor that takes a value (the next word is it). */
function takesValue(command: Command, flag: string): boolean {
  const option = [command, ...ancestors(command)]
    .flatMap((c) => c.options)
    .find((o) => o.long === flag || o.short === flag);
  return option?.required === true || option?.optional === true;
}

function ancestors(command: Command): Command[] {
  return command.parent === null ? [] : [command.parent, ...ancestors(command.parent)];
}

function applyToAll(command: Command, apply: (command: Command) => void): void {
  apply(command);
  for (const child of command.commands) applyToAll(child, apply);
}
