/** The command tree as completion needs it: every command path with its subcommands, options and positional arguments. */
import type { Command } from 'commander';

export interface OptionSpec {
  long: string;
  short?: string | undefined;
  takesValue: boolean;
  /** The words its value can be (commander's `.choices()`), e.g. csv ndjson. */
  choices?: readonly string[] | undefined;
  /** Its value is a file name (`<file>` in the flags). */
  takesFile?: boolean | undefined;
}

/**
 * What one positional argument completes to: a few words, words chosen by the argument before it (`api GET`
 * offers the paths that take GET), file names, profile names, or nothing (free text).
 */
export type Positional =
  | { kind: 'words'; words: readonly string[] }
  | { kind: 'after'; words: Readonly<Record<string, readonly string[]>> }
  | { kind: 'files' | 'profiles' | 'free' };

export interface CommandNode {
  /** e.g. '' (the root), 'order', 'order list'. */
  path: string;
  subcommands: string[];
  /** In order; a variadic last one (`<address...>`) is not repeated here: later positions complete nothing. */
  positionals: Positional[];
  options: string[];
  optionSpecs: OptionSpec[];
}

export interface CompletionTree {
  commands: CommandNode[];
  /** Options of the root, accepted after any command. */
  globalOptions: string[];
  globalOptionSpecs: OptionSpec[];
  /** Every option that takes a value (its next word is not a command). */
  valueOptions: string[];
  /** Options whose value is one of a few words, with those words (merged across commands). */
  valueChoices: Record<string, readonly string[]>;
  /** Options whose value is a file name. */
  fileOptions: string[];
}

/**
 * Words for positional arguments that commander cannot know (they are not enforced choices), keyed by the
 * command path and the argument's name: `'config set name'`, `'api method'`; or, keyed by the argument
 * before it, the words each of its values allows (`'api path'`: the paths of each method).
 */
export type ArgumentWords = Readonly<Record<string, readonly string[] | Readonly<Record<string, readonly string[]>>>>;

const VERSION: OptionSpec = { long: '--version', short: '-V', takesValue: false };
const HELP: OptionSpec = { long: '--help', short: '-h', takesValue: false };
/** Commander's own `help [command]` is not in `root.commands`: completion adds it. */
const HELP_COMMAND = 'help';
/** Argument and value names that mean a file; `-` (standard input) is typed, not completed. */
const FILE_NAME = /^(file|path)$/;
/** Option values that name a file to run (`--on-event <command>`: a script, as often as not). */
const FILE_VALUE = /^(file|path|command)$/;
/** `--output json` is `--json` for every command (app/program.ts): the commands with --output offer it too. */
const EXTRA_CHOICES: Readonly<Record<string, readonly string[]>> = { '--output': ['json'] };

export function completionTree(
  root: Command,
  argumentWords: ArgumentWords,
  helpTopics: readonly string[] = [],
): CompletionTree {
  const commands: CommandNode[] = [];
  const valueOptions = new Set<string>();
  const valueChoices = new Map<string, Set<string>>();
  const fileOptions = new Set<string>();
  const specsOf = (command: Command): OptionSpec[] => {
    const specs: OptionSpec[] = command.options
      .filter((o) => !o.hidden && o.long !== undefined)
      .map((o) => ({
        long: o.long!,
        short: o.short,
        takesValue: o.required || o.optional,
        choices:
          o.argChoices === undefined ? undefined : [...new Set([...o.argChoices, ...(EXTRA_CHOICES[o.long!] ?? [])])],
        takesFile: FILE_VALUE.test(/<([^>]+)>|\[([^\]]+)\]/.exec(o.flags)?.slice(1).find(Boolean) ?? ''),
      }));
    for (const spec of specs) {
      // Both spellings: the word after `-f` is its value, not a positional argument.
      if (spec.takesValue) for (const flag of [spec.long, spec.short]) if (flag !== undefined) valueOptions.add(flag);
      if (spec.takesFile === true) fileOptions.add(spec.long);
      for (const choice of spec.choices ?? [])
        valueChoices.set(spec.long, (valueChoices.get(spec.long) ?? new Set()).add(choice));
    }
    return specs;
  };
  const positionalsOf = (command: Command, path: string): Positional[] =>
    command.registeredArguments.map((argument): Positional => {
      const words = argumentWords[`${path} ${argument.name()}`] ?? argument.argChoices;
      if (words !== undefined && !Array.isArray(words))
        return { kind: 'after', words: words as Readonly<Record<string, readonly string[]>> };
      if (words !== undefined) return { kind: 'words', words: words as readonly string[] };
      if (FILE_NAME.test(argument.name())) return { kind: 'files' };
      return { kind: argument.name() === 'profile' ? 'profiles' : 'free' };
    });
  const walk = (command: Command, path: string) => {
    const visible = command.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
    const specs = path === '' ? [VERSION, HELP] : [...specsOf(command), HELP];
    const subcommands = visible.map((c) => c.name());
    commands.push({
      path,
      subcommands: path === '' ? [...subcommands, HELP_COMMAND] : subcommands,
      positionals: positionalsOf(command, path),
      options: specs.flatMap((s) => (s.short === undefined ? [s.long] : [s.long, s.short])),
      optionSpecs: specs,
    });
    // `energy help <command>` completes the top-level commands, and the topics `help` explains.
    if (path === '')
      commands.push({
        path: HELP_COMMAND,
        subcommands: [],
        positionals: [{ kind: 'words', words: [...subcommands, ...helpTopics] }],
        options: [],
        optionSpecs: [],
      });
    for (const child of visible) walk(child, path === '' ? child.name() : `${path} ${child.name()}`);
  };
  // The root's options are accepted after any command, except --version (the root's alone).
  const globalSpecs = specsOf(root).filter((s) => s.long !== VERSION.long);
  walk(root, '');
  return {
    commands,
    globalOptions: globalSpecs.flatMap((s) => (s.short === undefined ? [s.long] : [s.long, s.short])),
    globalOptionSpecs: globalSpecs,
    valueOptions: [...valueOptions].sort(),
    valueChoices: Object.fromEntries([...valueChoices].map(([option, words]) => [option, [...words]])),
    fileOptions: [...fileOptions].sort(),
  };
}
