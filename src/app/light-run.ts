/**
 * `energy balance` and `energy time` are what scripts call most: the entry runs them from a bundle of
 * their own (dist/bin/light.cjs, app/light-main.ts: the two commands' work without commander or the other
 * commands), when the command line is certainly one of them in its plainest form: the command word, the
 * flags `--json` and `--verbose`, and root options whose value is plain text (`--profile`, `--base-url`,
 * `--tron-node`, `--state-url`, as `--x v` or `--x=v`). Anything else (`--timeout`, whose value is parsed,
 * `--help`, `--`, another word) takes the whole program, which runs every command line the same way, only a
 * few milliseconds slower.
 */
import type { GlobalOptions } from '../commands/shell-words.js';

/** The commands of the light bundle. */
type LightName = 'balance' | 'time';
const LIGHT = new Set<string>(['balance', 'time']);
/** The root options (app/program.ts) taken as they are written, by the name commander gives their value. */
const TEXT: Record<string, 'profile' | 'baseUrl' | 'tronNode' | 'stateUrl'> = {
  '--profile': 'profile',
  '--base-url': 'baseUrl',
  '--tron-node': 'tronNode',
  '--state-url': 'stateUrl',
};
const FLAGS: Record<string, 'json' | 'verbose'> = { '--json': 'json', '--verbose': 'verbose' };

/** What the light bundle runs: the command, and the root options as commander would have parsed them. */
export interface LightRun {
  command: LightName;
  globals: GlobalOptions;
}

/** The light run `args` asks for, or undefined when the whole program must run them. */
export function lightRun(args: readonly string[]): LightRun | undefined {
  let command: LightName | undefined;
  const globals: GlobalOptions = {};
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    const flag = FLAGS[word];
    if (flag !== undefined) {
      globals[flag] = true;
      continue;
    }
    const eq = word.indexOf('=');
    const name = eq > 0 ? word.slice(0, eq) : word;
    const text = Object.hasOwn(TEXT, name) ? TEXT[name] : undefined;
    if (text !== undefined) {
      const value = eq > 0 ? word.slice(eq + 1) : args[(i += 1)];
      // Commander would take `--profile --json` as the profile "--json": that, and an empty or missing
      // value, are left to it.
      if (value === undefined || value === '' || value.startsWith('-')) return undefined;
      globals[text] = value;
      continue;
    }
    if (command !== undefined || !LIGHT.has(word)) return undefined;
    command = word as LightName;
  }
  return command === undefined ? undefined : { command, globals };
}

/** The light command `args` runs, or undefined when the whole program must run them. */
export function lightCommand(args: readonly string[]): string | undefined {
  return lightRun(args)?.command;
}
