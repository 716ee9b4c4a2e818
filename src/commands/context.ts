/**
 * What every command shares: the terminal, the global options, the settings and one client. Built lazily,
 * so that a command opens only what it uses (no config read when flags and environment say everything,
 * no HTTP stack for `config`).
 */
import type { EnergyClient } from '../client/client.js';
import { maskKey, scrubSecrets } from '../client/redact.js';
import { parseBaseUrl } from '../client/base-url.js';
import { configDir } from '../config/paths.js';
import { resolveProfileName, resolveSettings, type Settings } from '../config/settings.js';
import { ConfigStore } from '../config/store.js';
import { UsageError } from '../errors.js';
import { Printer } from '../output/printer.js';
import type { Terminal } from '../output/terminal.js';

export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  verbose?: boolean;
  timeout?: number;
  retries?: number;
}

export class Context {
  globals: GlobalOptions = {};
  /** Aborted to stop a long command early and cleanly (e.g. on Ctrl-C): `order list --all` ends its output validly. */
  readonly stop = new AbortController();
  #printer: Printer | undefined;
  #store: ConfigStore | undefined;
  #settings: Promise<Settings> | undefined;
  #credentials: string[] = [];
  #credentialSources: string | undefined;
  #client: EnergyClient | undefined;

  constructor(readonly terminal: Terminal) {}

  get printer(): Printer {
    this.#printer ??= new Printer(this.terminal, this.globals.json === true);
    return this.#printer;
  }

  get store(): ConfigStore {
    this.#store ??= new ConfigStore(configDir(this.terminal.env));
    return this.#store;
  }

  settings(): Promise<Settings> {
    this.#settings ??= resolveSettings({
      options: { profile: this.globals.profile, baseUrl: this.globals.baseUrl },
      env: this.terminal.env,
      readProfile: (name) => this.store.profile(name),
    }).then((settings) => {
      for (const name of ['api-key', 'api-secret'] as const) {
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
    return this.#settings;
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
    return [this.terminal.env.ENERGY_API_SECRET, this.terminal.env.ENERGY_API_KEY, ...this.#credentials].filter(
      (value): value is string => value !== undefined && value !== '',
    );
  }

  /** The selected profile (option, then ENERGY_PROFILE, then "default"), without reading the store. */
  profileName(): string {
    return resolveProfileName({ profile: this.globals.profile }, this.terminal.env).profile;
  }

  /** The API client for the resolved base URL; credentials are checked when a signed call is made. */
  async client(): Promise<EnergyClient> {
    if (this.#client !== undefined) return this.#client;
    const settings = await this.settings();
    const baseUrlText = settings.values['base-url'].value;
    if (baseUrlText === undefined) {
      throw new UsageError('no API base URL', {
        hint: `set one with \`energy config set base-url https://…\`${settings.profile === 'default' ? '' : ` --profile ${settings.profile}`}, --base-url or ENERGY_BASE_URL`,
      });
    }
    const baseUrl = parseBaseUrl(baseUrlText);
    const apiKey = settings.values['api-key'].value;
    const apiSecret = settings.values['api-secret'].value;
    // Loaded here, not at the top: the HTTP stack is the heaviest import, and `config` or `--help` never need it.
    const [{ EnergyClient }, { OffsetFile }] = await Promise.all([import('../client/client.js'), import('../config/offset-file.js')]);
    const verbose = this.globals.verbose === true;
    const say = (line: string) => this.printer.note(scrubSecrets(line, this.knownCredentials()));
    this.#client = new EnergyClient({
      baseUrl,
      credentials: apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : undefined,
      offsetStore: new OffsetFile(configDir(this.terminal.env)),
      env: this.terminal.env,
      ...(this.globals.timeout !== undefined && {
        timeouts: { requestMs: this.globals.timeout * 1000, connectMs: Math.min(5000, this.globals.timeout * 1000) },
      }),
      ...(this.globals.retries !== undefined && { retryPolicy: { retries: this.globals.retries } }),
      log: verbose ? (line) => say(line) : undefined,
      onRetry: verbose || this.terminal.stderr.isTTY === true ? (line) => say(`energy: ${line}`) : undefined,
    });
    if (verbose && apiKey !== undefined) say(`energy: profile ${settings.profile}, key ${maskKey(apiKey)}`);
    return this.#client;
  }

  async close(): Promise<void> {
    await this.#client?.close();
  }
}
