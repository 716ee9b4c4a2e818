/** The command tree as completion needs it: every command path with its subcommands, options and word arguments. */
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

export interface CommandNode {
  /** e.g. '' (the root), 'order', 'order list'. */
  path: string;
  subcommands: string[];
  /** Words an argument can be, e.g. the setting names of `config set`. */
  arguments: string[];
  options: string[];
  optionSpecs: OptionSpec[];
  /** A positional argument is a file name (`order batch <file>`): complete file names there. */
  takesFile: boolean;
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

/** `settingNames`: the words of `config set|get|unset <name>`. */
const VERSION: OptionSpec = { long: '--version', short: '-V', takesValue: false };
const HELP: OptionSpec = { long: '--help', short: '-h', takesValue: false };
/** Commander's own `help [command]` is not in `root.commands`: completion adds it. */
const HELP_COMMAND = 'help';
/** Argument and value names that mean a file; `-` (standard input) is typed, not completed. */
const FILE_NAME = /^(file|path)$/;

export function completionTree(root: Command, settingNames: readonly string[]): CompletionTree {
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
        choices: o.argChoices,
        takesFile: FILE_NAME.test(/<([^>]+)>|\[([^\]]+)\]/.exec(o.flags)?.slice(1).find(Boolean) ?? ''),
      }));
    for (const spec of specs) {
      if (spec.takesValue) valueOptions.add(spec.long);
      if (spec.takesFile === true) fileOptions.add(spec.long);
      for (const choice of spec.choices ?? [])
        valueChoices.set(spec.long, (valueChoices.get(spec.long) ?? new Set()).add(choice));
    }
    return specs;
  };
  const walk = (command: Command, path: string) => {
    const visible = command.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
    const takesSetting = command.registeredArguments.some((a) => a.name() === 'name') && path.startsWith('config ');
    const specs = path === '' ? [VERSION, HELP] : [...specsOf(command), HELP];
    const subcommands = visible.map((c) => c.name());
    commands.push({
      path,
      subcommands: path === '' ? [...subcommands, HELP_COMMAND] : subcommands,
      arguments: [
        ...(takesSetting ? settingNames : []),
        ...command.registeredArguments.flatMap((a) => a.argChoices ?? []),
      ],
      options: specs.flatMap((s) => (s.short === undefined ? [s.long] : [s.long, s.short])),
      optionSpecs: specs,
      takesFile: command.registeredArguments.some((a) => FILE_NAME.test(a.name())),
    });
    // `energy help <command>` completes the top-level commands.
    if (path === '')
      commands.push({
        path: HELP_COMMAND,
        subcommands: [],
        arguments: subcommands,
        options: [],
        optionSpecs: [],
        takesFile: false,
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
