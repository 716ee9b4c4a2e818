/** The command tree as completion needs it: every command path with its subcommands, options and word arguments. */
import type { Command } from 'commander';

export interface OptionSpec {
  long: string;
  short?: string | undefined;
  takesValue: boolean;
}

export interface CommandNode {
  /** e.g. '' (the root), 'order', 'order list'. */
  path: string;
  subcommands: string[];
  /** Words an argument can be, e.g. the setting names of `config set`. */
  arguments: string[];
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
}

/** `settingNames`: the words of `config set|get|unset <name>`. */
const VERSION: OptionSpec = { long: '--version', short: '-V', takesValue: false };
const HELP: OptionSpec = { long: '--help', short: '-h', takesValue: false };

export function completionTree(root: Command, settingNames: readonly string[]): CompletionTree {
  const commands: CommandNode[] = [];
  const valueOptions = new Set<string>();
  const specsOf = (command: Command): OptionSpec[] => {
    const specs: OptionSpec[] = command.options
      .filter((o) => !o.hidden && o.long !== undefined)
      .map((o) => ({ long: o.long!, short: o.short, takesValue: o.required || o.optional }));
    for (const spec of specs) if (spec.takesValue) valueOptions.add(spec.long);
    return specs;
  };
  const walk = (command: Command, path: string) => {
    const visible = command.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden);
    const takesSetting = command.registeredArguments.some((a) => a.name() === 'name') && path.startsWith('config ');
    const specs = path === '' ? [VERSION, HELP] : [...specsOf(command), HELP];
    commands.push({
      path,
      subcommands: visible.map((c) => c.name()),
      arguments: [
        ...(takesSetting ? settingNames : []),
        ...command.registeredArguments.flatMap((a) => a.argChoices ?? []),
      ],
      options: specs.flatMap((s) => (s.short === undefined ? [s.long] : [s.long, s.short])),
      optionSpecs: specs,
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
  };
}
