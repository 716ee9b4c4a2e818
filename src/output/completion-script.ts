/**
 * Shell completion scripts for bash, zsh and fish, generated from the command tree (completion-tree.ts)
 * each time `energy completion <shell>` runs, so they always match the installed version. Commands,
 * options and setting names are written into the script; profile names, which change, are asked of
 * `energy completion --profiles` when completing the value of --profile.
 */
import type { CommandNode, CompletionTree, OptionSpec } from './completion-tree.js';

export type Shell = 'bash' | 'zsh' | 'fish';

export function completionScript(shell: Shell, tree: CompletionTree, program?: string): string {
  return shell === 'fish' ? fishScript(tree, program) : bashScript(tree, shell === 'zsh', program);
}

const words = (list: readonly string[]) => list.join(' ');
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The program that lists profile names: the file this script was made by (so that it works from a checkout
 * or under npx, where no `energy` is on PATH), else, or once that file is gone, `energy` on PATH.
 */
const programOf = (program: string | undefined) => quote(program ?? 'energy');

/** A bash/fish-safe glob for `word` in any letter case: GET → [Gg][Ee][Tt] (`energy api get` is GET too). */
const anyCase = (word: string) =>
  [...word].map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c.toLowerCase()}]`)).join('');

/** Bash `case` branches setting what the positional argument at `$npos` completes to. */
function positionalCases(command: CommandNode): string {
  const branches = command.positionals.map((positional, index) => {
    const set =
      positional.kind === 'words'
        ? `args=${quote(words(positional.words))}`
        : positional.kind === 'after'
          ? `case $lastarg in ${Object.entries(positional.words)
              .map(([before, list]) => `${anyCase(before)}) args=${quote(words(list))} ;;`)
              .join(' ')} *) args=- ;; esac`
          : positional.kind === 'free'
            ? 'args=-'
            : `args=${quote(`<${positional.kind}>`)}`;
    return `${index}) ${set} ;;`;
  });
  return branches.length === 0 ? '' : ` case $npos in ${branches.join(' ')} esac;`;
}

/**
 * Also zsh's, through bashcompinit: hence no local named `path` (zsh ties it to PATH). Every list goes
 * into COMPREPLY one line a word (`_energy_reply`), never through `COMPREPLY=($(…))`, which splits a file
 * name with a space into two words (shellcheck SC2207).
 */
function bashScript(tree: CompletionTree, zsh: boolean, program: string | undefined): string {
  const valued = tree.valueOptions.join('|');
  // The catch-all for the previous word leaves out the options with a branch of their own (shellcheck SC2221).
  const ownBranch = new Set(['--profile', ...Object.keys(tree.valueChoices), ...tree.fileOptions]);
  const valuedElse = tree.valueOptions.filter((option) => !ownBranch.has(option)).join('|');
  const pathCases = tree.commands
    .filter((c) => c.path !== '')
    .map((c) => `      ${quote(c.path)}) cmdpath=${quote(c.path)} ;;`)
    .join('\n');
  const wordCases = tree.commands
    .map(
      (c) =>
        `    ${quote(c.path)}) candidates=${quote(words([...c.subcommands, ...c.options, ...tree.globalOptions]))};${positionalCases(c)} ;;`,
    )
    .join('\n');
  // Specific values before the catch-all for options that take one (the first matching pattern wins).
  const valueCases = [
    ...Object.entries(tree.valueChoices).map(
      ([option, choices]) =>
        `    ${option}) _energy_reply < <(compgen -W ${quote(words(choices))} -- "$cur"); return ;;`,
    ),
    ...tree.fileOptions.map((option) => `    ${option}) _energy_files; return ;;`),
  ].join('\n');
  return `# energy ${zsh ? 'zsh' : 'bash'} completion (energy completion ${zsh ? 'zsh' : 'bash'})
${zsh ? 'autoload -U +X bashcompinit && bashcompinit\n' : ''}# One completion a line into COMPREPLY, so that a file name with a space stays one word.
_energy_reply() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do COMPREPLY+=("$line"); done
}
# File names, marked as such so that bash adds / to folders and quotes spaces. zsh (through bashcompinit)
# has no compopt: there a folder gets its / here, so that the next TAB goes on inside it.
_energy_files() {
  if [[ -n \${ZSH_VERSION-} ]]; then
    local name
    COMPREPLY=()
    while IFS= read -r name; do
      [[ -d $name ]] && name+=/
      COMPREPLY+=("$name")
    done < <(compgen -f -- "$cur")
    return
  fi
  compopt -o filenames 2>/dev/null
  _energy_reply < <(compgen -f -- "$cur")
}
_energy_profiles() {
  local bin=${programOf(program)}
  [[ -x $bin ]] || bin=energy
  _energy_reply < <(compgen -W "$(command "$bin" completion --profiles 2>/dev/null)" -- "$cur")
}
_energy_completion() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmdpath='' word candidates args='' npos=0 lastarg='' i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    case "$word" in
      ${valued}) i=$((i + 1)); continue ;;
      -*) continue ;;
    esac
    case "\${cmdpath:+$cmdpath }$word" in
${pathCases}
      *) npos=$((npos + 1)); lastarg=$word ;;
    esac
  done
  case "$prev" in
    --profile) _energy_profiles; return ;;
${valueCases}
    ${valuedElse}) COMPREPLY=(); return ;;
  esac
  case "$cmdpath" in
${wordCases}
  esac
  if [[ -n $args && $cur != -* ]]; then
    case "$args" in
      '<files>') _energy_files ;;
      '<profiles>') _energy_profiles ;;
      -) COMPREPLY=() ;;
      *) _energy_reply < <(compgen -W "$args" -- "$cur") ;;
    esac
    return
  fi
  _energy_reply < <(compgen -W "$candidates" -- "$cur")
}
complete -F _energy_completion energy
`;
}

/**
 * fish: `__energy_arg N DEPTH` is true when the word being completed is the positional argument N of a
 * command DEPTH words deep (options and their values not counted), so that `energy api <TAB>` offers the
 * methods and `energy api GET <TAB>` the paths.
 */
function fishScript(tree: CompletionTree, program: string | undefined): string {
  const valued = tree.valueOptions.join(' ');
  const lines = [
    '# energy fish completion (energy completion fish)',
    'complete -c energy -f',
    '# The words typed so far that are not options nor their values (the first: the command).',
    'function __energy_words',
    '    set -l skip 0',
    '    for word in (commandline -opc)[2..-1]',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    '        switch $word',
    ...(valued === '' ? [] : [`            case ${valued}`, '                set skip 1']),
    "            case '-*'",
    "            case '*'",
    '                echo $word',
    '        end',
    '    end',
    'end',
    'function __energy_arg',
    '    test (count (__energy_words)) -eq (math $argv[1] + $argv[2])',
    'end',
    '# The Nth such word (1: the command): `energy api GET` has GET second.',
    'function __energy_word',
    '    set -l typed (__energy_words)',
    '    test (count $typed) -ge $argv[1]; and echo $typed[$argv[1]]',
    'end',
    'function __energy_profiles',
    `    set -l bin ${programOf(program)}`,
    '    test -x $bin; or set bin energy',
    '    command $bin completion --profiles 2>/dev/null',
    'end',
  ];
  const topLevel = tree.commands.find((c) => c.path === '')?.subcommands ?? [];
  for (const option of tree.globalOptionSpecs) if (option.long !== '--profile') lines.push(fishOption(option, ''));
  lines.push(`complete -c energy -l profile -x -a '(__energy_profiles)'`);
  for (const command of tree.commands) {
    const parts = command.path === '' ? [] : command.path.split(' ');
    const seen = parts.map((p) => `__fish_seen_subcommand_from ${p}`);
    const here = [
      ...seen,
      ...(command.subcommands.length > 0 ? [`not __fish_seen_subcommand_from ${words(command.subcommands)}`] : []),
    ];
    const condition = parts.length === 0 ? `not __fish_seen_subcommand_from ${words(topLevel)}` : here.join('; and ');
    for (const sub of command.subcommands) lines.push(`complete -c energy -n ${quote(condition)} -a ${sub}`);
    command.positionals.forEach((positional, index) => {
      const at = quote(`${seen.join('; and ')}; and __energy_arg ${index} ${parts.length}`);
      if (positional.kind === 'words') lines.push(`complete -c energy -n ${at} -a ${quote(words(positional.words))}`);
      if (positional.kind === 'after')
        for (const [before, list] of Object.entries(positional.words)) {
          const when = `${seen.join('; and ')}; and __energy_arg ${index} ${parts.length}; and string match -qi -- ${before} (__energy_word ${parts.length + index})`;
          lines.push(`complete -c energy -n ${quote(when)} -a ${quote(words(list))}`);
        }
      if (positional.kind === 'files') lines.push(`complete -c energy -n ${at} -F`);
      if (positional.kind === 'profiles') lines.push(`complete -c energy -n ${at} -a '(__energy_profiles)'`);
    });
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
