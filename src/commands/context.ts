/**
 * What every command shares: the terminal, the global options, the settings and one client. Built lazily,
 * so that a command opens only what it uses (no config read when flags and environment say everything,
 * no HTTP stack for `config`).
 */
import type { EnergyClient } from '../client/client.js';
import type { Journal } from '../journal/journal.js';
import type { TronNode } from '../tron/tron-node.js';
import { maskKey, scrubSecrets } from '../client/redact.js';
import { parseBaseUrl } from '../client/base-url.js';
import { configDir } from '../config/paths.js';
import { API_SETTING_NAMES, TRON_SETTING_NAMES, credentialProblem, type SettingName } from '../config/names.js';
import { environmentVariableFor, resolveProfileName, resolveSettings, type Settings } from '../config/settings.js';
import { ConfigStore } from '../config/store.js';
import { AuthError, UsageError } from '../domain/errors.js';
import { Printer } from '../output/printer.js';
import { shellQuote } from './shell-words.js';
import type { Terminal } from '../output/terminal.js';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  tronNode?: string;
  json?: boolean;
  verbose?: boolean;
  timeout?: number;
  retries?: number;
}

export class Context {
  globals: GlobalOptions = {};
  #printer: Printer | undefined;
  #store: ConfigStore | undefined;
  readonly #settings = new Map<string, Promise<Settings>>();
  #credentials: string[] = [];
  #credentialSources: string | undefined;
  #client: EnergyClient | undefined;
  #tronNode: TronNode | undefined;
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

  /** The settings in effect; the profile is read only when `needed` ones are not settled by options and environment. */
  settings(needed: readonly SettingName[] = API_SETTING_NAMES): Promise<Settings> {
    const key = needed.join(',');
    const cached = this.#settings.get(key);
    if (cached !== undefined) return cached;
    const settings = resolveSettings({
      options: { profile: this.globals.profile, baseUrl: this.globals.baseUrl, tronNode: this.globals.tronNode },
      env: this.terminal.env,
      readProfile: (name) => this.store.findProfile(name),
      needed,
    }).then((settings) => {
      for (const name of ['api-key', 'api-secret', 'tron-api-key'] as const) {
        const value = settings.values[name].value;
        if (value !== undefined) this.#credentials.push(value);
      }
      const key = settings.values['api-key'].source;
      const secret = settings.values['api-secret'].source;
      if (key !== undefined && secret !== undefined && key !== secret) {
        this.#credentialSources = `the API key comes from the ${key} and the secret from the ${secret} (profile ${settings.profile}): do they belong together?`;
      }
      return settings;
    });
    this.#settings.set(key, settings);
    return settings;
  }

  /** The profile named by --profile or ENERGY_PROFILE (checked), or undefined when neither is set. */
  explicitProfile(): string | undefined {
    const { profile, source } = resolveProfileName({ profile: this.globals.profile }, this.terminal.env);
    return source === 'default' ? undefined : profile;
  }

  /** Said with a 401: a key and secret from different places are the most common mismatch. */
  credentialSourcesNote(): string | undefined {
    return this.#credentialSources;
  }

  /** Every credential this run has seen (environment and profile), to scrub from anything it prints. */
  knownCredentials(): string[] {
    const env = this.terminal.env;
    return [env.ENERGY_API_SECRET, env.ENERGY_API_KEY, env.ENERGY_TRON_API_KEY, ...this.#credentials].filter(
      (value): value is string => value !== undefined && value !== '',
    );
  }

  /** The selected profile (option, then ENERGY_PROFILE, then "default"), without reading the store. */
  profileName(): string {
    return resolveProfileName({ profile: this.globals.profile }, this.terminal.env).profile;
  }

  /**
   * The API client for the resolved base URL; credentials are checked when a signed call is made. On an
   * interrupt, its requests in flight are cut off, unless `finishInFlight` (a batch lets them end, so that
   * it learns and journals their outcome). The first call decides.
   */
  async client(options: { finishInFlight?: boolean } = {}): Promise<EnergyClient> {
    if (this.#client !== undefined) return this.#client;
    const settings = await this.settings();
    const baseUrl = await this.#baseUrl(settings);
    return this.#createClient(settings, baseUrl, options.finishInFlight === true);
  }

  /** The API base URL, or the reason there is none (an unknown profile, a missing setting). */
  async #baseUrl(settings: Settings): Promise<URL> {
    if (settings.profileFound === false && settings.profileSource !== 'default')
      throw await this.#unknownProfile(settings);
    const baseUrlText = settings.values['base-url'].value;
    if (baseUrlText === undefined) {
      const profileOption = settings.profile === 'default' ? '' : ` --profile ${settings.profile}`;
      throw new UsageError(
        `no API base URL${settings.profile === 'default' ? '' : ` in profile ${settings.profile}`}`,
        {
          hint: `run \`energy${profileOption} config set base-url https://…\`, or give --base-url or ENERGY_BASE_URL; to try the tool locally, run \`energy sandbox\` in a second terminal and use \`energy --profile sandbox …\``,
        },
      );
    }
    return parseBaseUrl(baseUrlText);
  }

  /** The API client; see `client()`. */
  async #createClient(settings: Settings, baseUrl: URL, finishInFlight: boolean): Promise<EnergyClient> {
    const apiKey = settings.values['api-key'].value;
    const apiSecret = settings.values['api-secret'].value;
    for (const name of ['api-key', 'api-secret'] as const) {
      const { value, source } = settings.values[name];
      const problem = value === undefined ? undefined : credentialProblem(name, value);
      if (problem === undefined) continue;
      const where =
        source === 'environment' ? `the ${environmentVariableFor(name)} variable` : `profile ${settings.profile}`;
      throw new AuthError(`${problem} (from ${where})`, {
        hint:
          source === 'environment'
            ? `set ${environmentVariableFor(name)} again`
            : `set it again: energy --profile ${settings.profile} config set ${name}`,
      });
    }
    // Loaded here, not at the top: the HTTP stack is the heaviest import, and `config` or `--help` never need it.
    const [{ EnergyClient }, { OffsetFile }] = await Promise.all([
      import('../client/client.js'),
      import('../config/offset-file.js'),
    ]);
    const verbose = this.globals.verbose === true;
    const say = (line: string) => this.printer.note(scrubSecrets(line, this.knownCredentials()));
    this.#client = new EnergyClient({
      baseUrl,
      credentials: apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : undefined,
      offsetStore: new OffsetFile(configDir(this.terminal.env)),
      env: this.terminal.env,
      ...this.#transportTuning(),
      signal: finishInFlight ? undefined : this.terminal.interrupt,
      log: verbose ? (line) => say(line) : undefined,
      onRetry: verbose || this.terminal.stderr.isTTY === true ? (line) => say(`energy: ${line}`) : undefined,
    });
    if (verbose && apiKey !== undefined) say(`energy: profile ${settings.profile}, key ${maskKey(apiKey)}`);
    return this.#client;
  }

  /** The TRON node client for `address`, `estimate` and `ensure` (tron-node, default TronGrid mainnet). */
  async tronNode(): Promise<TronNode> {
    if (this.#tronNode !== undefined) return this.#tronNode;
    const settings = await this.settings(TRON_SETTING_NAMES);
    const nodeUrl = parseBaseUrl(settings.values['tron-node'].value ?? '', 'TRON node URL');
    const { value: apiKey, source } = settings.values['tron-api-key'];
    const problem = apiKey === undefined ? undefined : credentialProblem('tron-api-key', apiKey);
    if (problem !== undefined) {
      // Refused here: a header with a line break would be refused by node:http as a bug-like crash.
      const where = source === 'environment' ? 'the ENERGY_TRON_API_KEY variable' : `profile ${settings.profile}`;
      throw new AuthError(`${problem} (from ${where})`, {
        hint: `set it again: energy --profile ${settings.profile} config set tron-api-key`,
      });
    }
    const { TronNode } = await import('../tron/tron-node.js');
    // `ensure` has up to 16 node requests in flight, each listening for Ctrl-C: more than Node's default
    // of 10 listeners per signal, which is not a leak here.
    if (this.terminal.interrupt !== undefined)
      process.getBuiltinModule('node:events').setMaxListeners(64, this.terminal.interrupt);
    const verbose = this.globals.verbose === true;
    const say = (line: string) => this.printer.note(scrubSecrets(line, this.knownCredentials()));
    this.#tronNode = new TronNode({
      baseUrl: nodeUrl,
      apiKey,
      env: this.terminal.env,
      ...this.#transportTuning(),
      signal: this.terminal.interrupt,
      log: verbose ? (line) => say(line) : undefined,
      onRetry: verbose || this.terminal.stderr.isTTY === true ? (line) => say(`energy: ${line}`) : undefined,
    });
    if (verbose)
      say(
        `energy: TRON node ${nodeUrl.origin} (${settings.values['tron-node'].source})${apiKey === undefined ? ', no API key' : ''}`,
      );
    return this.#tronNode;
  }

  /** --timeout and --retries, for both the API and the TRON node. */
  #transportTuning(): { timeouts?: { requestMs: number; connectMs: number }; retryPolicy?: { retries: number } } {
    return {
      ...(this.globals.timeout !== undefined && {
        timeouts: { requestMs: this.globals.timeout * 1000, connectMs: Math.min(5000, this.globals.timeout * 1000) },
      }),
      ...(this.globals.retries !== undefined && { retryPolicy: { retries: this.globals.retries } }),
    };
  }

  /**
   * The order journal for this API and key, in the state folder. Orders need credentials anyway; asking
   * for them here means that no record is written for a request that could never be signed.
   */
  journal(): Promise<Journal> {
    this.#journal ??= (async () => {
      const settings = await this.settings();
      const baseUrl = await this.#baseUrl(settings);
      const apiKey = settings.values['api-key'].value;
      if (apiKey === undefined || settings.values['api-secret'].value === undefined) {
        throw new AuthError('no API credentials', {
          hint: 'set them with `energy config set api-key` and `energy config set api-secret`, or ENERGY_API_KEY and ENERGY_API_SECRET',
        });
      }
      const [{ Journal }, { keyIdOf }, { stateDir }] = await Promise.all([
        import('../journal/journal.js'),
        import('../journal/record.js'),
        import('../journal/state-dir.js'),
      ]);
      const origin = baseUrl.href.replace(/\/+$/, '');
      return new Journal(stateDir(this.terminal.env), { origin, keyId: keyIdOf(apiKey) });
    })();
    return this.#journal;
  }

  /**
   * Says on stderr that earlier orders from this machine have no known outcome, with the command that
   * settles them. `exceptId` is the order this command is itself about to settle. Quiet when the journal
   * cannot be opened: the command itself will say what is missing.
   */
  async mentionUnsettledOrders(exceptId?: string): Promise<void> {
    let count: number;
    try {
      count = (await this.journal()).pendingCount(exceptId);
    } catch {
      return;
    }
    if (count === 0) return;
    const orders = count === 1 ? '1 order request' : `${count} order requests`;
    this.printer.note(
      `energy: ${orders} sent from this machine never got an answer; see \`${this.invocation('order', 'pending')}\`, settle with \`${this.invocation('order', 'recover')}\``,
    );
  }

  /** `energy` with the --profile and --base-url given to this run, then `words`, quoted for a shell. */
  invocation(...words: string[]): string {
    const globals = [
      ...(this.globals.profile === undefined ? [] : ['--profile', this.globals.profile]),
      ...(this.globals.baseUrl === undefined ? [] : ['--base-url', this.globals.baseUrl]),
    ];
    return ['energy', ...globals, ...words].map(shellQuote).join(' ');
  }

  /** A profile named by --profile or ENERGY_PROFILE that the store does not have: say so, not "no base URL". */
  async #unknownProfile(settings: Settings): Promise<UsageError> {
    const known = await this.store.profileNames();
    const via = settings.profileSource === 'option' ? '--profile' : 'ENERGY_PROFILE';
    return new UsageError(
      `unknown profile "${settings.profile}" (from ${via}): ${known.length === 0 ? 'the config file has no profiles' : `known profiles: ${known.join(', ')}`}`,
      {
        hint: `create it with \`energy --profile ${settings.profile} config set base-url https://…\`, or see \`energy config profiles\``,
      },
    );
  }

  async close(): Promise<void> {
    await Promise.all([this.#client?.close(), this.#tronNode?.close()]);
  }
}
