/**
 * TronNode: the read-only calls of a TRON full node's HTTP API that `energy` uses
 * (../shared/spec/tron-node-subset.md). Same transport qualities as the Energy API client, from the same
 * parts: client/http.ts for the exchange, client/attempts.ts for the request loop (abort, the shared 429
 * hold, retries with backoff or Retry-After), the http-only-on-loopback rule, and `--verbose` lines with
 * the API key masked.
 */
import { attemptSettings, runAttempts, type AttemptSettings } from '../client/attempts.js';
import { parseBaseUrl } from '../client/base-url.js';
import { DEFAULT_TIMEOUTS, HttpConnection, type HttpTimeouts, type LookupFunction } from '../client/http.js';
import { loggedExchange } from '../client/logged-exchange.js';
import { maskSecret } from '../client/redact.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../client/retry-policy.js';
import type { Check } from '../client/shape.js';
import { retryAfterHeader } from '../client/decode.js';
import { TRANSFER_SELECTOR, encodeTransferParameter } from './abi.js';
import { decodeTronFailure, decodeTronSuccess, type TronKeySource } from './tron-decode.js';
import { constantCallResult } from './constant-call.js';
import { accountInfo, accountResource, energyPrice, nowBlock } from './tron-schemas.js';
import type {
  AccountInfo,
  AccountResource,
  ConstantCallResult,
  EnergyPrice,
  NowBlock,
  TransferSimulation,
} from './tron-types.js';

export interface TronNodeOptions {
  /** e.g. https://api.trongrid.io; `/wallet/...` paths are appended. */
  baseUrl: URL;
  /** Sent as TRON-PRO-API-KEY (TronGrid); never logged. */
  apiKey?: string | undefined;
  /** Where the key came from, for the hint when the node refuses it (default: a generic one). */
  apiKeySource?: TronKeySource | undefined;
  timeouts?: Partial<HttpTimeouts>;
  retryPolicy?: Partial<RetryPolicy>;
  log?: ((line: string) => void) | undefined;
  onRetry?: ((line: string) => void) | undefined;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default process.env): the node goes through the same proxy rules. */
  env?: NodeJS.ProcessEnv | undefined;
  /** Host name resolution, as node:net's `lookup`; lets tests stay off DNS. */
  lookup?: LookupFunction | undefined;
  /** Ends the call at once when aborted (Ctrl-C, SIGTERM), closing the connection. */
  signal?: AbortSignal | undefined;
  nowMs?: () => number;
  random?: () => number;
  sleepMs?: (ms: number) => Promise<unknown>;
}

export const TRON_API_KEY_HEADER = 'TRON-PRO-API-KEY';

export class TronNode {
  readonly #options: TronNodeOptions;
  readonly #http: HttpConnection;
  readonly #basePath: string;
  readonly #attempts: AttemptSettings;
  #energyPrice: Promise<EnergyPrice> | undefined;

  constructor(options: TronNodeOptions) {
    parseBaseUrl(options.baseUrl.href, 'TRON node URL');
    this.#options = options;
    this.#basePath = options.baseUrl.pathname.replace(/\/+$/, '');
    this.#http = new HttpConnection(
      options.baseUrl.origin,
      { ...DEFAULT_TIMEOUTS, ...options.timeouts },
      {
        env: options.env,
        log: options.log,
        lookup: options.lookup,
      },
    );
    this.#attempts = attemptSettings({ ...DEFAULT_RETRY_POLICY, ...options.retryPolicy }, this.#http, options);
  }

  get origin(): string {
    return this.#options.baseUrl.origin;
  }

  /**
   * The node's URL as given, its path included (`http://10.0.0.5:8090/tron`): what errors name, so that a
   * node behind a path prefix is recognisable (the origin alone could be another service on that host).
   */
  get url(): string {
    return this.origin + this.#basePath;
  }

  /** POST /wallet/getaccountresource; counters the node left out read as 0. */
  getAccountResource(address: string): Promise<AccountResource> {
    return this.#call('/wallet/getaccountresource', { address, visible: true }, accountResource);
  }

  /** POST /wallet/getnowblock: the head block, a cheap check that the node answers and takes the key. */
  getNowBlock(): Promise<NowBlock> {
    return this.#call('/wallet/getnowblock', {}, nowBlock);
  }

  /**
   * POST /wallet/getchainparameters, read once per client (one run): the price of burning energy, which the
   * network's committee changes from time to time (420, 280, 210, 100 sun so far), so it is never assumed.
   */
  getEnergyPrice(): Promise<EnergyPrice> {
    this.#energyPrice ??= this.#call('/wallet/getchainparameters', {}, energyPrice);
    // A failed read is not kept: the next asker tries again.
    this.#energyPrice.catch(() => (this.#energyPrice = undefined));
    return this.#energyPrice;
  }

  /** POST /wallet/getaccount: activated or not (`{}`). */
  getAccount(address: string): Promise<AccountInfo> {
    return this.#call('/wallet/getaccount', { address, visible: true }, accountInfo);
  }

  /** POST /wallet/triggerconstantcontract for `transfer(to, amount)` from `from`: nothing is sent on chain. */
  simulateTransfer(simulation: TransferSimulation): Promise<ConstantCallResult> {
    const body = {
      owner_address: simulation.from,
      contract_address: simulation.token,
      function_selector: TRANSFER_SELECTOR,
      parameter: encodeTransferParameter(simulation.to, simulation.amount),
      visible: true,
    };
    return this.#call('/wallet/triggerconstantcontract', body, constantCallResult);
  }

  async close(): Promise<void> {
    await this.#http.close();
  }

  /** Every call is read-only, so every failure may be retried without doubt. */
  #call<T>(path: string, payload: object, check: Check<T>): Promise<T> {
    const body = Buffer.from(JSON.stringify(payload), 'utf8');
    const label = `TRON node ${this.url} POST ${path}`;
    const { apiKey, log, nowMs = Date.now } = this.#options;
    const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
    if (apiKey !== undefined) headers[TRON_API_KEY_HEADER] = apiKey;
    return runAttempts(this.#attempts, {
      label: `POST ${path}`,
      failureLabel: label,
      idempotent: true,
      exchange: () =>
        loggedExchange(
          this.#http,
          { method: 'POST', pathAndQuery: this.#basePath + path, headers, body },
          {
            origin: this.origin,
            log,
            redactHeader: (name, value) =>
              name.toLowerCase() === TRON_API_KEY_HEADER.toLowerCase() ? maskSecret(value) : value,
            nowMs,
          },
        ),
      decode: (response) => decodeTronSuccess(response, check, label),
      serverNowMs: nowMs,
      retryAfter: retryAfterHeader,
      failure: (response) => decodeTronFailure(response, label, apiKey !== undefined, this.#options.apiKeySource),
    });
  }
}
