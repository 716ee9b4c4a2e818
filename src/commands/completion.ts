/**
 * `energy completion bash|zsh|fish`: prints a completion script. The script generator loads only for this
 * command; `--profiles` (hidden) is what the scripts call to complete --profile's value.
 */
import { Argument, Command, Option } from 'commander';
import { SETTING_NAMES } from '../config/names.js';
import { configDir } from '../config/paths.js';
import { UsageError } from '../domain/errors.js';
import { HELP_TOPICS } from '../help/topic-names.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';

const INSTALL = `
Install it for bash, zsh or fish, then open a new shell:
  energy completion bash > ~/.local/share/bash-completion/completions/energy
  echo 'source <(energy completion zsh)' >> ~/.zshrc
  energy completion fish > ~/.config/fish/completions/energy.fish`;

export interface CompletionCommandOptions extends Pick<CommandServices, 'terminal' | 'printer'> {
  shell: 'bash' | 'zsh' | 'fish' | undefined;
  /** --profiles: the profile names, one a line, instead of a script. */
  profiles: boolean;
  /** --json was given (a script is no document). */
  json: boolean;
  /** The whole command tree, which the script completes. */
  root: Command;
}

export function completionCommand(
  ctx: Context,
  run: (options: CompletionCommandOptions) => Promise<void> = completionRun,
): Command {
  return new Command('completion')
    .description('print a shell completion script (commands, options, profile and setting names)')
    .addArgument(new Argument('[shell]', 'the shell to complete in').choices(['bash', 'zsh', 'fish']))
    .addOption(new Option('--profiles', 'print the profile names, one a line (used by the scripts)').hideHelp())
    .addHelpText('after', INSTALL)
    .action((shell: CompletionCommandOptions['shell'], parsed: { profiles?: boolean }, command: Command) => {
      let root = command;
      while (root.parent !== null) root = root.parent;
      const [profiles, json] = [parsed.profiles === true, ctx.globals.json === true];
      return run({ shell, profiles, json, root, ...ctx.services() });
    });
}

export async function completionRun(opts: CompletionCommandOptions): Promise<void> {
  const { printer, terminal, shell } = opts;
  if (opts.profiles) {
    const { profileNames } = await import('../config/profile-names.js');
    const names = profileNames(configDir(terminal.env));
    return printer.write(names.map((name) => `${name}\n`).join(''));
  }
  // A script is shell text, not data: --json would promise a document that never comes.
  if (opts.json)
    throw new UsageError('completion prints a shell script: --json does not apply', {
      hint: 'leave out --json: the script is shell text, to save or source as it is',
    });
  if (shell === undefined) throw new UsageError('which shell?', { hint: 'energy completion bash, zsh or fish' });
  const [{ completionTree }, { completionScript }, { API_METHODS, API_PATHS }] = await Promise.all([
    import('../output/completion-tree.js'),
    import('../output/completion-script.js'),
    import('../ordering/api-request.js'),
  ]);
  const words = {
    ...Object.fromEntries(['set', 'get', 'unset'].map((verb) => [`config ${verb} name`, SETTING_NAMES])),
    'api method': API_METHODS,
    'api path': API_PATHS,
  };
  // `help` also explains topics, hidden from the command list (program.ts).
  const topics = Object.keys(HELP_TOPICS);
  await printer.write(completionScript(shell, completionTree(opts.root, words, topics), terminal.program));
}
