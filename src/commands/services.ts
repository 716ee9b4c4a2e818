/**
 * Building the services a command may use (the API client, the TRON node client, the order journal) from
 * the settings in effect. Each heavy module is imported when it is first needed, not at start-up: the HTTP
 * stack is the heaviest import, and `config` or `--help` never need it.
 */
import type { EnergyClient } from '../client/client.js';
import type { OrderJournal } from '../journal/order-journal.js';
import type { StateStore } from '../state/state-store.js';
import { useServerClock } from '../domain/server-now.js';
import type { TronNode } from '../tron/tron-node.js';
import { maskKey } from '../client/redact.js';
import { isLoopbackHost, parseBaseUrl } from '../client/base-url.js';
import { UsageError } from '../domain/errors.js';
import { configDir } from '../config/paths.js';
import {
  assertUsableCredentials,
  credentialSource,
  missingCredentialsError,
  requireApiKey,
} from '../config/credentials.js';
import type { Settings } from '../config/settings.js';
import type { ServiceEnv } from './service-env.js';

/** --timeout and --retries, for both the API and the TRON node; --verbose request lines; retry notes on a terminal. */
function transportOptions(run: ServiceEnv) {
  return {
    ...(run.timeout !== undefined && {
      timeouts: { requestMs: run.timeout * 1000, connectMs: Math.min(5000, run.timeout * 1000) },
    }),
    ...(run.retries !== undefined && { retryPolicy: { retries: run.retries } }),
    env: run.terminal.env,
    log: run.verbose ? run.trace : undefined,
    onRetry:
      run.verbose || run.terminal.stderr.isTTY === true ? (line: string) => run.say(`energy: ${line}`) : undefined,
  };
}

/**
 * NODE_TLS_REJECT_UNAUTHORIZED=0 turns off every certificate check in the process, for a tool that spends
 * money: refused, with the way to trust a private CA instead (Node's own warning is hidden by --no-warnings).
 */
function assertCertificateChecks(env: NodeJS.ProcessEnv): void {
  if (env.NODE_TLS_REJECT_UNAUTHORIZED !== '0') return;
  throw new UsageError('NODE_TLS_REJECT_UNAUTHORIZED=0 turns off TLS certificate checks: energy will not run so', {
    hint: 'unset it; to trust a private or proxy CA, set NODE_EXTRA_CA_CERTS=/path/to/ca.pem instead',
  });
}

/** "profile prod", or where the values came from when no profile value was used (all from the environment). */
function usedFrom(settings: Settings): string {
  const sources = new Set((['base-url', 'api-key', 'api-secret'] as const).map((name) => settings.values[name].source));
  if (sources.has('profile')) return `profile ${settings.profile}`;
  return sources.has('option') ? 'options and environment, no profile' : 'environment, no profile';
}

/**
 * The API client for `baseUrl`; credentials are checked when a signed call is made. On an interrupt, its
 * requests in flight are cut off, unless `finishInFlight` (a batch lets them end, to journal their outcome).
 */
export async function createApiClient(
  run: ServiceEnv,
  settings: Settings,
  baseUrl: URL,
  finishInFlight: boolean,
): Promise<EnergyClient> {
  assertCertificateChecks(run.terminal.env);
  assertUsableCredentials(settings, ['api-key', 'api-secret']);
  const apiKey = settings.values['api-key'].value;
  const apiSecret = settings.values['api-secret'].value;
  const [{ EnergyClient }, { OffsetFile }] = await Promise.all([
    import('../client/client.js'),
    import('../config/offset-file.js'),
  ]);
  const client = new EnergyClient({
    baseUrl,
    credentials: apiKey !== undefined && apiSecret !== undefined ? { apiKey, apiSecret } : undefined,
    missingCredentials: () => missingCredentialsError(settings),
    offsetStore: new OffsetFile(configDir(run.terminal.env)),
    ...transportOptions(run),
    signal: finishInFlight ? undefined : run.terminal.interrupt,
  });
  if (run.verbose && apiKey !== undefined) run.trace(`energy: ${usedFrom(settings)}, key ${maskKey(apiKey)}`);
  // The process's one server clock: the journal and state store stamp on it too (domain/server-now.ts).
  useServerClock(() => client.serverNowMs());
  return client;
}

/** The TRON node client for `address`, `estimate` and `ensure` (tron-node, default TronGrid mainnet). */
export async function createTronNode(run: ServiceEnv, settings: Settings): Promise<TronNode> {
  assertCertificateChecks(run.terminal.env);
  const nodeUrl = parseBaseUrl(settings.values['tron-node'].value ?? '', 'TRON node URL');
  // Named with its path, as errors name it: a node behind a prefix is another service than the host's root.
  const named = nodeUrl.origin + nodeUrl.pathname.replace(/\/+$/, '');
  if (nodeUrl.protocol === 'http:' && !isLoopbackHost(nodeUrl.hostname))
    run.say(
      `energy: note: TRON node ${named} over plain http on a private network: its answers (balances, energy) are not protected in transit${settings.values['tron-api-key'].value === undefined ? '' : ', nor its API key'}`,
    );
  // Refused here: a header with a line break would be refused by node:http as a bug-like crash.
  assertUsableCredentials(settings, ['tron-api-key']);
  const apiKey = settings.values['tron-api-key'].value;
  const { TronNode } = await import('../tron/tron-node.js');
  // `ensure` has up to 16 node requests in flight, each listening for Ctrl-C: more than Node's default
  // of 10 listeners per signal, which is not a leak here.
  if (run.terminal.interrupt !== undefined)
    process.getBuiltinModule('node:events').setMaxListeners(64, run.terminal.interrupt);
  const node = new TronNode({
    baseUrl: nodeUrl,
    apiKey,
    apiKeySource: credentialSource(settings, 'tron-api-key'),
    ...transportOptions(run),
    signal: run.terminal.interrupt,
  });
  if (run.verbose) {
    const source = settings.values['tron-node'].source;
    run.trace(`energy: TRON node ${named} (${source})${apiKey === undefined ? ', no API key' : ''}`);
  }
  return node;
}

/**
 * The order journal for this account, in the state store. The account is the API key's one-way id, never the
 * base URL's spelling (the URL goes with it as information): `http://127.0.0.1:p` and `http://localhost:p`
 * share records and claims. Orders need credentials anyway; asking for them first means that no record is
 * written for a request that could never be signed (and no database is reached for one). `say` hears the
 * store meet this key under another spelling of the URL, once.
 */
export async function openJournal(
  state: () => Promise<StateStore>,
  settings: Settings,
  baseUrl: URL,
  say?: (line: string) => void,
): Promise<OrderJournal> {
  const apiKey = requireApiKey(settings);
  const { keyIdOf } = await import('../journal/record.js');
  const store = await state();
  return store.journal({ origin: baseUrl.href.replace(/\/+$/, ''), keyId: keyIdOf(apiKey) }, say);
}
