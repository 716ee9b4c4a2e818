/**
 * The settings one run reads, each set of names once: where every value comes from (`sources`), and the
 * values themselves with secrets kept in a file or a helper command read in (`settings`). What was read is
 * kept, so that errors can say where a URL came from and every credential seen is scrubbed from output.
 */
import { credentialSourcesNote, credentialValues } from './credentials.js';
import { API_SETTING_NAMES, type SettingName } from './names.js';
import { loadSecrets } from './secret-sources.js';
import { resolveSettings, type Settings, type SettingsInput } from './settings.js';
import { unreachableHint } from './unreachable-hint.js';

export class SettingsCache {
  readonly #settings = new Map<string, Promise<Settings>>();
  readonly #sources = new Map<string, Promise<Settings>>();
  readonly #seen: Settings[] = [];

  /** `input` is asked at first use: the global options are parsed after the cache is made. */
  constructor(private readonly input: () => Omit<SettingsInput, 'needed'> & { signal?: AbortSignal | undefined }) {}

  settings(needed: readonly SettingName[] = API_SETTING_NAMES): Promise<Settings> {
    return memo(this.#settings, needed, () =>
      this.sources(needed)
        .then((sources) => loadSecrets(sources, needed, this.input().signal))
        .then((resolved) => (this.#seen.push(resolved), resolved)),
    );
  }

  sources(needed: readonly SettingName[] = API_SETTING_NAMES): Promise<Settings> {
    return memo(this.#sources, needed, () => {
      const { options, env, readProfile } = this.input();
      return resolveSettings({ options, env, readProfile, needed });
    });
  }

  /** Said with a 401: a key and secret from different places are the most common mismatch. */
  credentialSourcesNote(): string | undefined {
    return this.#seen.map(credentialSourcesNote).find((note) => note !== undefined);
  }

  unreachableHint(error: unknown): string | undefined {
    return unreachableHint(error, this.#seen, this.input().env);
  }

  /** Every credential this run has seen (environment and profile), to scrub from anything it prints. */
  knownCredentials(env: NodeJS.ProcessEnv): string[] {
    const fromEnv = [env.ENERGY_API_SECRET, env.ENERGY_API_KEY, env.ENERGY_TRON_API_KEY];
    return [...fromEnv, ...this.#seen.flatMap(credentialValues)].filter((value): value is string => !!value);
  }
}

/** One answer per set of setting names, made on first use. */
function memo(cache: Map<string, Promise<Settings>>, needed: readonly SettingName[], make: () => Promise<Settings>) {
  const key = needed.join(',');
  let made = cache.get(key);
  if (made === undefined) cache.set(key, (made = make()));
  return made;
}
