/**
 * What every command is given: the terminal, the global options, and factories for the settings and the
 * services built from them. Each is built on first use, so that a command opens only what it uses (no
 * config read when flags and environment say everything, no HTTP stack for `config`).
 */
import type { EnergyClient } from '../client/client.js';
import type { OrderJournal } from '../journal/order-journal.js';
import type { StateStore } from '../state/state-store.js';
import type { TronNode } from '../tron/tron-node.js';
import { apiBaseUrl } from '../config/credentials.js';
import { STATE_SETTING_NAMES, TRON_SETTING_NAMES, type SettingName } from '../config/names.js';
import { configDir } from '../config/paths.js';
import { resolveProfileName, stateUrlSetting, type Settings } from '../config/settings.js';
import { SettingsCache } from '../config/settings-cache.js';
import { ConfigStore } from '../config/store.js';
import { Printer } from '../output/printer.js';
import type { Terminal } from '../output/terminal.js';
import type { CommandServices } from './command-services.js';
import { serviceEnv, type ServiceEnv } from './service-env.js';
import { createApiClient, createTronNode, openJournal } from './services.js';
import { commandLine, type GlobalOptions } from './shell-words.js';

export class Context {
  globals: GlobalOptions = {};
  #printer: Printer | undefined;
  #store: ConfigStore | undefined;
  /** The settings of this run, read once; main.ts asks it for the hints of a failed run. */
  readonly settingsCache = new SettingsCache(() => {
    const { profile, baseUrl, tronNode, stateUrl } = this.globals;
    return {
      options: { profile, baseUrl, tronNode, stateUrl },
      env: this.terminal.env,
      readProfile: (name: string) => this.store.findProfile(name),
      signal: this.terminal.interrupt,
    };
  });
  #client: Promise<EnergyClient> | undefined;
  #tronNode: Promise<TronNode> | undefined;
  #journal: Promise<OrderJournal> | undefined;
  #state: Promise<StateStore> | undefined;

  constructor(readonly terminal: Terminal) {}

  get printer(): Printer {
    this.#printer ??= new Printer(this.terminal, this.globals.json === true);
    return this.#printer;
  }

  get store(): ConfigStore {
    this.#store ??= new ConfigStore(configDir(this.terminal.env), (line) => this.printer.note(line));
    return this.#store;
  }

  /** The settings in effect, secrets from a file or a helper command read in (see settings-cache.ts). */
  settings(needed?: readonly SettingName[]): Promise<Settings> {
    return this.settingsCache.settings(needed);
  }

  /** Like `settings`, without reading a secret file or running a helper command: where each value comes from. */
  settingSources(needed?: readonly SettingName[]): Promise<Settings> {
    return this.settingsCache.sources(needed);
  }

  /** The selected profile (option, then ENERGY_PROFILE, then "default"), checked, without reading the store. */
  selectedProfile(): { name: string; explicit: boolean } {
    const { profile, source } = resolveProfileName({ profile: this.globals.profile }, this.terminal.env);
    return { name: profile, explicit: source !== 'default' };
  }

  knownCredentials(): string[] {
    return this.settingsCache.knownCredentials(this.terminal.env);
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

  /**
   * The TRON node when one is configured (option, environment or profile), else undefined: what commands use
   * whose answer the node only adds to (the contract check, rent or burn), so that they never reach the
   * default public node unasked.
   */
  async configuredTronNode(): Promise<TronNode | undefined> {
    const settings = await this.settings(TRON_SETTING_NAMES);
    return settings.values['tron-node'].source === 'default' ? undefined : this.tronNode();
  }

  /** The services a command's run takes (see CommandServices); nothing is opened until asked for. */
  services(): CommandServices {
    return {
      client: () => this.client(),
      journal: () => this.journal(),
      state: () => this.state(),
      terminal: this.terminal,
      printer: this.printer,
      verbose: this.globals.verbose === true,
      invocation: (...words) => this.invocation(...words),
    };
  }

  /** The order journal for this API and key (see `openJournal`), in the state store. */
  journal(): Promise<OrderJournal> {
    this.#journal ??= this.#apiSettings().then(({ settings, baseUrl }) =>
      openJournal(() => this.state(), settings, baseUrl, this.#serviceEnv().say),
    );
    return this.#journal;
  }

  /** The state store: PostgreSQL where `state-url` names one, else the state folder; not kept when it failed. */
  state(): Promise<StateStore> {
    const state = (this.#state ??= this.settings(STATE_SETTING_NAMES).then(async (settings) =>
      (await import('../state/open-store.js')).openStateStore(this.terminal.env, stateUrlSetting(settings)),
    ));
    state.catch(() => this.#state === state && (this.#state = undefined));
    return state;
  }

  /** `energy` with the --profile and --base-url given to this run, then `words`, quoted for a shell. */
  invocation(...words: string[]): string {
    return commandLine(this.globals, ...words);
  }

  async close(): Promise<void> {
    const made = [this.#client, this.#tronNode, this.#state];
    await Promise.all(made.map((service) => service?.then((s) => s.close()).catch(() => undefined)));
  }

  async #apiSettings(): Promise<{ settings: Settings; baseUrl: URL }> {
    const settings = await this.settings();
    return { settings, baseUrl: await apiBaseUrl(settings, () => this.store.profileNames()) };
  }

  #serviceEnv(): ServiceEnv {
    return serviceEnv(this.terminal, this.printer, this.globals, () => this.knownCredentials());
  }
}
