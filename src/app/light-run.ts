/**
 * `energy balance` and `energy time` are what scripts call most: the entry runs them from a bundle of
 * their own (dist/bin/light.cjs: the program without the other commands' modules, half the code to load),
 * when the command line certainly names one of them. Certainly: only the root options below may come
 * first; anything else (another option, `help`, `--`) takes the whole program, which runs every command
 * line the same way, only a few milliseconds slower.
 */

/** The commands of the light bundle. */
const LIGHT = new Set(['balance', 'time']);
/** The root options (app/program.ts) that take a value, and those that take none. */
const WITH_VALUE = new Set(['--profile', '--base-url', '--tron-node', '--state-url', '--timeout', '--retries']);
const FLAGS = new Set(['--json', '--verbose']);

/** The light command `args` runs, or undefined when the whole program must run them. */
export function lightCommand(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i += 1) {
    const word = args[i]!;
    if (FLAGS.has(word)) continue;
    if (WITH_VALUE.has(word)) {
      i += 1;
      continue;
    }
    const eq = word.indexOf('=');
    if (eq > 0 && WITH_VALUE.has(word.slice(0, eq))) continue;
    return LIGHT.has(word) ? word : undefined;
  }
  return undefined;
}
