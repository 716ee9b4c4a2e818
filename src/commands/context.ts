/**
 * What every command is given: the terminal, the global options, and factories for the settings and the
 * services built from them. Each is built on first use, so that a command opens only what it uses (no
 * config read when flags and environment say everything, no HTTP stack for `config`).
 */
import type { EnergyClient } from '../client/client.js';
import type { Journal } from '../journal/journal.js';
import type { TronNode } from '../tron/tron-node.js';
import { scrubSecrets } from '../client/redact.js';
import { apiBaseUrl, credentialSourcesNote, credentialValues } from '../config/credentials.js';
import { API_SETTING_NAMES, TRON_SETTING_NAMES, type SettingName } from '../config/names.js';
import { configDir } from '../config/paths.js';
import { resolveProfileName, resolveSettings, type Settings } from '../config/settings.js';
import { loadSecrets } from '../config/secret-sources.js';
import { ConfigStore } from '../config/store.js';
import { unreachableHint } from '../config/unreachable-hint.js';
import { Printer } from '../output/printer.js';
import type { Terminal } from '../output/terminal.js';
import { createApiClient, createTronNode, openJournal, type ServiceEnv } from './services.js';
import { commandLine, type GlobalOptions } from './shell-words.js';

export class Context {
  globals: GlobalOptions = {};
  #printer: Printer | undefined;
  #store: ConfigStore | undefined;
  readonly #settings = new Map<string, Promise<Settings>>();
  readonly #sources = new Map<string, Promise<Settings>>();
  readonly #seen: Settings[] = [];
  #client: Promise<EnergyClient> | undefined;
  #tronNode: Promise<TronNode> | undefined;
  #journal: Promise<Journal> | undefined;

  constructor(readonly terminal: Terminal) {}

  get printer(): Printer {
    this.#printer ??= new Printer(this.terminal, this.globals.json === true);
    return this.#printer;
  }

  get store(): ConfigStore {
    this.#store ??= new ConfigStore(configDir(this.terminal.env));
    return this.#store;
  }

  /**
   * The settings in effect; the profile is read only when `needed` ones are not settled by options and
   * environment. The `needed` secrets kept in a file or a helper command are read in.
   */
  settings(needed: readonly SettingName[] = API_SETTING_NAMES): Promise<Settings> {
    return memo(this.#settings, needed, () =>
      this.settingSources(needed)
        .then((sources) => loadSecrets(sources, needed, this.terminal.interrupt))
        .then((resolved) => (this.#seen.push(resolved), resolved)),
    );
  }

  /** Like `settings`, without reading a secret file or running a helper command: where each value comes from. */
  settingSources(needed: readonly SettingName[] = API_SETTING_NAMES): Promise<Settings> {
    const { profile, baseUrl, tronNode } = this.globals;
    return memo(this.#sources, needed, () =>
      resolveSettings({
        options: { profile, baseUrl, tronNode },
        env: this.terminal.env,
        readProfile: (name) => this.store.findProfile(name),
        needed,
      }),
    );
  }

  /** The selected profile (option, then ENERGY_PROFILE, then "default"), checked, without reading the store. */
  selectedProfile(): { name: string; explicit: boolean } {
    const { profile, source } = resolveProfileName({ profile: this.globals.profile }, this.terminal.env);
    return { name: profile, explicit: source !== 'default' };
  }

  /** Said with a 401 (see `credentialSourcesNote`), once the API settings were read. */
  credentialSourcesNote(): string | undefined {
    return this.#seen.map(credentialSourcesNote).find((note) => note !== undefined);
  }

  /** For a server that cannot be reached: the URL in effect and where it came from (see unreachable-hint.ts). */
  unreachableHint(error: unknown): string | undefined {
    return unreachableHint(error, this.#seen);
  }

  /** Every credential this run has seen (environment and profile), to scrub from anything it prints. */
  knownCredentials(): string[] {
    const { env } = this.terminal;
    const fromEnv = [env.ENERGY_API_SECRET, env.ENERGY_API_KEY, env.ENERGY_TRON_API_KEY];
    return [...fromEnv, ...this.#seen.flatMap(credentialValues)].filter((value): value is string => !!value);
  }

  /** The API client (see `createApiClient`); the first call decides `finishInFlight`. */
  client(options: { finishInFlight?: boolean } = {}): Promise<EnergyClient> {
    this.#client ??= this.#apiSettings().then(({ settings, baseUrl }) =>
      createApiClient(this.#serviceEnv(), settings, baseUrl, options.finishInFlight === true),
    );
    return this.#client;
  }

  tronNode(): Promise<TronNode> {
    this.#tronNode ??= this.settings(TRON_SETTING_NAMES).then((settings) =>
      createTronNode(this.#serviceEnv(), settings),
    );
    return this.#tronNode;
  }

  /** The order journal for this API and key (see `openJournal`). */
  journal(): Promise<Journal> {
    this.#journal ??= this.#apiSettings().then(({ settings, baseUrl }) =>
      openJournal(this.terminal.env, settings, baseUrl),
    );
    return this.#journal;
  }

  /** `energy` with the --profile and --base-url given to this run, then `words`, quoted for a shell. */
  invocation(...words: string[]): string {
    return commandLine(this.globals, ...words);
  }

  async close(): Promise<void> {
    const closing = [this.#client, this.#tronNode].map((made) => made?.then((s) => s.close()).catch(() => undefined));
    await Promise.all(closing);
  }

  async #apiSettings(): Promise<{ settings: Settings; baseUrl: URL }> {
    const settings = await this.settings();
    return { settings, baseUrl: await apiBaseUrl(settings, () => this.store.profileNames()) };
  }

  #serviceEnv(): ServiceEnv {
    const { verbose, timeout, retries } = this.globals;
    const say = (line: string) => this.printer.note(scrubSecrets(line, this.knownCredentials()));
    const trace = (line: string) => this.printer.verbose(scrubSecrets(line, this.knownCredentials()));
    return { terminal: this.terminal, verbose: verbose === true, timeout, retries, say, trace };
  }
}

/** One answer per set of setting names, made on first use. */
function memo(cache: Map<string, Promise<Settings>>, needed: readonly SettingName[], make: () => Promise<Settings>) {
  const key = needed.join(',');
  let made = cache.get(key);
  if (made === undefined) cache.set(key, (made = make()));
  return made;
}
