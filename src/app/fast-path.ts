/**
 * Answers `energy --version` and `energy --help` without loading commander or anything else: shell scripts
 * call these in loops, and loading the program costs about as much as starting Node. Both texts are set by
 * the bundler (scripts/bundle.mjs); unbundled (tests, tsc output) the full program answers instead.
 */

/** The package version. */
declare const ENERGY_VERSION: string | undefined;
/** The root help exactly as commander renders it, captured at build time. */
declare const ENERGY_ROOT_HELP: string | undefined;

/** The text to print for a fast-path invocation, or undefined when the full program must run. */
export function fastPathOutput(args: readonly string[]): string | undefined {
  // `--json --version` either way round: the version as JSON, as main.ts writes it.
  if (args.length === 2 && args.includes('--json') && typeof ENERGY_VERSION === 'string') {
    const other = args.find((arg) => arg !== '--json');
    if (other === '--version' || other === '-V') return `${JSON.stringify({ version: ENERGY_VERSION })}\n`;
  }
  if (args.length !== 1) return undefined;
  const [flag] = args;
  if ((flag === '--version' || flag === '-V' || flag === '-v') && typeof ENERGY_VERSION === 'string')
    return `${ENERGY_VERSION}\n`;
  if ((flag === '--help' || flag === '-h') && typeof ENERGY_ROOT_HELP === 'string') return ENERGY_ROOT_HELP;
  return undefined;
}
