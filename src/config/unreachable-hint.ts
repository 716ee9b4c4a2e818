/**
 * For a server that cannot be reached (down, wrong host or port): which URL was in effect and where it came
 * from (option, environment, profile, default), and for a loopback one whether the sandbox runs. For a
 * certificate no trusted CA signed: NODE_EXTRA_CA_CERTS. undefined for any other failure, or a URL this run
 * did not use.
 */
import { isLoopbackHost } from '../client/base-url.js';
import { HttpFailure } from '../client/http-failure.js';
import { NetworkError } from '../domain/errors.js';
import { environmentVariableFor, type Settings } from './settings.js';

/** Failures that say the server is not there, not that it misbehaved. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'CONNECT_TIMEOUT']);

/** OpenSSL's "no trusted CA signed this": a private CA, which NODE_EXTRA_CA_CERTS can add (an expired or misnamed certificate it cannot help). */
const UNTRUSTED_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);

export function unreachableHint(
  error: unknown,
  seen: readonly Settings[],
  env: NodeJS.ProcessEnv = {},
): string | undefined {
  if (!(error instanceof NetworkError) || !(error.cause instanceof HttpFailure)) return undefined;
  if (error.cause.code === 'TLS_CERTIFICATE') return untrustedHint(error.cause, env);
  if (!UNREACHABLE_CODES.has(error.cause.code)) return undefined;
  for (const settings of seen) {
    for (const name of ['base-url', 'tron-node'] as const) {
      const { value, source } = settings.values[name];
      const url = value === undefined || !URL.canParse(value) ? undefined : new URL(value);
      if (url === undefined || !error.message.includes(url.origin)) continue;
      const from =
        source === 'option'
          ? `--${name}`
          : source === 'environment'
            ? environmentVariableFor(name)
            : source === 'profile'
              ? `profile ${settings.profile}`
              : 'the built-in default';
      const what = name === 'base-url' ? 'the API base URL' : 'the TRON node';
      const sandbox = isLoopbackHost(url.hostname)
        ? `; is the sandbox running? start it with \`energy sandbox\` in another terminal`
        : '';
      // With its path, as given: a node or API behind a path prefix is named as the user wrote it.
      return `check ${what} ${url.origin}${url.pathname.replace(/\/+$/, '')} (from ${from})${sandbox}`;
    }
  }
  return undefined;
}

function untrustedHint(failure: HttpFailure, env: NodeJS.ProcessEnv): string | undefined {
  const code = (failure.cause as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !UNTRUSTED_CODES.has(code)) return undefined;
  const given = env.NODE_EXTRA_CA_CERTS;
  if (given !== undefined && given !== '')
    return `NODE_EXTRA_CA_CERTS names ${given}, which does not hold the CA that signed this certificate: add that CA's certificate (PEM) to it`;
  return "if the server's certificate comes from a private CA, put that CA's certificate (PEM) in a file and run with NODE_EXTRA_CA_CERTS=/path/to/ca.pem (certificate checks are never turned off)";
}
