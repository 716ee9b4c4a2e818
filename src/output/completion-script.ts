/**
 * Shell completion scripts for bash, zsh and fish, generated from the command tree (completion-tree.ts)
 * each time `energy completion <shell>` runs, so they always match the installed version. Commands,
 * options and setting names are written into the script; profile names, which change, are asked of
 * `energy completion --profiles` when completing the value of --profile.
 */
import type { CompletionTree, OptionSpec } from './completion-tree.js';

export type Shell = 'bash' | 'zsh' | 'fish';

export function completionScript(shell: Shell, tree: CompletionTree): string {
  return shell === 'fish' ? fishScript(tree) : bashScript(tree, shell === 'zsh');
}

const words = (list: readonly string[]) => list.join(' ');
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** Also zsh's, through bashcompinit: hence no local named `path` (zsh ties it to PATH). */
function bashScript(tree: CompletionTree, zsh: boolean): string {
  const valued = tree.valueOptions.join('|');
  const pathCases = tree.commands
    .filter((c) => c.path !== '')
    .map((c) => `      ${quote(c.path)}) cmdpath=${quote(c.path)} ;;`)
    .join('\n');
  const wordCases = tree.commands
    .map(
      (c) =>
        `    ${quote(c.path)}) candidates=${quote(words([...c.subcommands, ...c.arguments, ...c.options, ...tree.globalOptions]))}${c.takesFile ? ' files=1' : ''} ;;`,
    )
    .join('\n');
  // Specific values before the catch-all for options that take one (the first matching pattern wins).
  const valueCases = [
    ...Object.entries(tree.valueChoices).map(
      ([option, choices]) => `    ${option}) COMPREPLY=($(compgen -W ${quote(words(choices))} -- "$cur")); return ;;`,
    ),
    ...tree.fileOptions.map((option) => `    ${option}) _energy_files; return ;;`),
  ].join('\n');
  return `# energy ${zsh ? 'zsh' : 'bash'} completion (energy completion ${zsh ? 'zsh' : 'bash'})
${zsh ? 'autoload -U +X bashcompinit && bashcompinit\n' : ''}# File names, marked as such so that bash adds / to folders (compopt is bash's alone: zsh goes without).
_energy_files() {
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
}
_energy_completion() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmdpath='' word candidates files='' i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    case "$word" in
      ${valued}) ((i++)); continue ;;
      -*) continue ;;
    esac
    case "\${cmdpath:+$cmdpath }$word" in
${pathCases}
    esac
  done
  case "$prev" in
    --profile) COMPREPLY=($(compgen -W "$(command energy completion --profiles 2>/dev/null)" -- "$cur")); return ;;
${valueCases}
    ${valued}) COMPREPLY=(); return ;;
  esac
  case "$cmdpath" in
${wordCases}
  esac
  if [[ -n $files && $cur != -* ]]; then _energy_files; return; fi
  COMPREPLY=($(compgen -W "$candidates" -- "$cur"))
}
complete -F _energy_completion energy
`;
}

function fishScript(tree: CompletionTree): string {
  const lines = ['# energy fish completion (energy completion fish)', 'complete -c energy -f'];
  const topLevel = tree.commands.find((c) => c.path === '')?.subcommands ?? [];
  for (const option of tree.globalOptionSpecs) if (option.long !== '--profile') lines.push(fishOption(option, ''));
  lines.push(`complete -c energy -l profile -x -a '(energy completion --profiles 2>/dev/null)'`);
  for (const command of tree.commands) {
    const parts = command.path === '' ? [] : command.path.split(' ');
    const seen = parts.map((p) => `__fish_seen_subcommand_from ${p}`);
    const here = [
      ...seen,
      ...(command.subcommands.length > 0 ? [`not __fish_seen_subcommand_from ${words(command.subcommands)}`] : []),
    ];
    const condition = parts.length === 0 ? `not __fish_seen_subcommand_from ${words(topLevel)}` : here.join('; and ');
    for (const sub of command.subcommands) lines.push(`complete -c energy -n ${quote(condition)} -a ${sub}`);
    if (command.arguments.length > 0)
      lines.push(`complete -c energy -n ${quote(condition)} -a ${quote(words(command.arguments))}`);
    if (command.takesFile) lines.push(`complete -c energy -n ${quote(condition)} -F`);
    for (const option of command.optionSpecs) lines.push(fishOption(option, seen.join('; and ')));
  }
  return `${lines.join('\n')}\n`;
}

function fishOption(option: OptionSpec, condition: string): string {
  const short = option.short === undefined ? '' : ` -s ${option.short.replace(/^-/, '')}`;
  const value =
    option.choices !== undefined
      ? ` -x -a ${quote(words(option.choices))}`
      : option.takesFile === true
        ? ' -r -F'
        : option.takesValue
          ? ' -r'
          : '';
  return `complete -c energy${condition === '' ? '' : ` -n ${quote(condition)}`} -l ${option.long.replace(/^--/, '')}${short}${value}`;
}
