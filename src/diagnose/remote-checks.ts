/**
 * The checks that talk to servers, run at once: the API reachable (and through which proxy) with the clock
 * skew against GET /v1/time, the credentials accepted by a signed GET /v1/balance, and the TRON node
 * reachable with its key accepted (POST /wallet/getnowblock).
 */
import type { EnergyClient } from '../client/client.js';
import { SKEW_TOLERANCE_SECONDS, describeOffset } from '../client/clock.js';
import { proxyFor, redactProxyUrl } from '../client/proxy-env.js';
import { AuthError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import { credentialSourcesNote, missingCredentialsError } from '../config/credentials.js';
import { loadSecrets } from '../config/secret-sources.js';
import { unreachableHint } from '../config/unreachable-hint.js';
import type { Settings } from '../config/settings.js';
import type { TronNode } from '../tron/tron-node.js';
import { failed, ok, warn, type CheckResult } from './check.js';

export interface Remote {
  env: NodeJS.ProcessEnv;
  signal: AbortSignal | undefined;
  apiClient(settings: Settings, baseUrl: URL): Promise<EnergyClient>;
  tronNode(settings: Settings): Promise<TronNode>;
  /** Secrets read from a file or a command, to scrub from what is printed. */
  remember(settings: Settings): void;
}

function route(url: URL, env: NodeJS.ProcessEnv): string {
  const proxy = proxyFor(url, env);
  return proxy === undefined ? 'directly' : `through the proxy ${redactProxyUrl(proxy.url)} (${proxy.variable})`;
}

/** The api and clock checks, and the server's clock as measured (undefined when the API did not answer). */
export interface ApiChecks {
  checks: CheckResult[];
  /** Server minus local clock, in seconds. */
  skewSeconds: number | undefined;
}

/** GET /v1/time, unsigned (no credentials read): reachability, then the skew against the local clock. */
export async function checkApi(remote: Remote, settings: Settings, baseUrl: URL): Promise<ApiChecks> {
  const anonymous = { value: undefined, source: undefined };
  const values = { ...settings.values, 'api-key': anonymous, 'api-secret': anonymous };
  let client: EnergyClient | undefined;
  try {
    client = await remote.apiClient({ ...settings, values }, baseUrl);
    const clock = await client.checkClock();
    const reached = ok('api', `${baseUrl.origin} answers GET /v1/time, reached ${route(baseUrl, remote.env)}`);
    const skew = Math.abs(clock.skew_seconds);
    const said = `${describeOffset(clock.skew_seconds)} (server ${clock.unix_time}, local ${clock.local_unix_time})`;
    const checks = [
      reached,
      skew > SKEW_TOLERANCE_SECONDS
        ? warn(
            'clock',
            said,
            'energy signs with the server time meanwhile, but set the clock right (NTP: timedatectl set-ntp true)',
          )
        : ok('clock', said),
    ];
    return { checks, skewSeconds: clock.skew_seconds };
  } catch (error) {
    // The commands' own hint (which URL, from where; on loopback, whether the sandbox runs), then the proxy the
    // request went through, if any: a whole clause, not "reached …" after a sentence (it was not reached).
    const check = unreachableHint(error, [settings]) ?? 'check the base URL and the network';
    const hint =
      proxyFor(baseUrl, remote.env) === undefined
        ? check
        : `${check}; check the proxy too: the request went ${route(baseUrl, remote.env)}`;
    const down = failed('api', error, hint);
    const clock: CheckResult = {
      name: 'clock',
      status: 'warn',
      detail: 'not measured: the API did not answer',
      hint: null,
    };
    return { checks: [down, clock], skewSeconds: undefined };
  } finally {
    await client?.close();
  }
}

/**
 * A signed GET /v1/balance: the key and secret (read from where they are kept) accepted. A failure gets
 * the hints a command would get: which settings are missing and how to set them, a 401's note when key
 * and secret come from different places, the URL and its source when the server is not there.
 */
export async function checkCredentials(remote: Remote, settings: Settings, baseUrl: URL): Promise<CheckResult> {
  let loaded = settings;
  try {
    loaded = await loadSecrets(settings, ['api-secret'], remote.signal);
    remote.remember(loaded);
    if (loaded.values['api-key'].value === undefined || loaded.values['api-secret'].value === undefined)
      throw missingCredentialsError(loaded);
    const client = await remote.apiClient(loaded, baseUrl);
    try {
      const balance = await client.balance();
      return ok('credentials', `accepted: signed GET /v1/balance answered (account ${printable(balance.status, 40)})`);
    } finally {
      await client.close();
    }
  } catch (error) {
    const result = failed('credentials', error, unreachableHint(error, [loaded]));
    const note = error instanceof AuthError && error.status === 401 ? credentialSourcesNote(loaded) : undefined;
    return note === undefined ? result : { ...result, hint: result.hint === null ? note : `${note}; ${result.hint}` };
  }
}

/**
 * POST /wallet/getnowblock with the key, if any: the node answers, takes the key, and is not far behind.
 * The head block's age is judged on the API server's clock when the api check measured it (`skewSeconds`,
 * awaited only once the block is in): on a host whose own clock is minutes fast, every node looks behind.
 */
export async function checkTronNode(
  remote: Remote,
  settings: Settings,
  skewSeconds: Promise<number | undefined>,
): Promise<CheckResult> {
  try {
    const loaded = await loadSecrets(settings, ['tron-api-key'], remote.signal);
    remote.remember(loaded);
    const url = new URL(loaded.values['tron-node'].value ?? '');
    const node = await remote.tronNode(loaded);
    try {
      const block = await node.getNowBlock();
      const hasKey = loaded.values['tron-api-key'].value !== undefined;
      const localNowMs = Date.now();
      const skew = await skewSeconds;
      const lagSeconds = Math.round((localNowMs + (skew ?? 0) * 1000 - block.timestampMs) / 1000);
      const clock = skew === undefined ? "this host's clock" : "the API server's clock";
      const detail = `${url.origin} answers, reached ${route(url, remote.env)}: head block ${block.number}, ${lagSeconds} s old by ${clock}; ${hasKey ? 'API key accepted' : 'no API key'}`;
      if (lagSeconds > 60)
        return warn(
          'tron-node',
          detail,
          'the node is behind the chain: address, estimate and ensure read old state; try another node (--tron-node)',
        );
      return hasKey || !url.hostname.endsWith('trongrid.io')
        ? ok('tron-node', detail)
        : ok('tron-node', detail, 'TronGrid limits requests without a key: energy config set tron-api-key');
    } finally {
      await node.close();
    }
  } catch (error) {
    return failed('tron-node', error, unreachableHint(error, [settings]));
  }
}
