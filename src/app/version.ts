/** Set by the bundler (scripts/bundle.mjs); undefined when running from tsc output or in tests. */
declare const ENERGY_VERSION: string | undefined;

export function packageVersion(): string {
  if (typeof ENERGY_VERSION === 'string') return ENERGY_VERSION;
  const text = process.getBuiltinModule('node:fs').readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { version: string }).version;
}
