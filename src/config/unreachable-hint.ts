/**
 * For a server that cannot be reached (down, wrong host or port): which URL was in effect and where it came
 * from (option, environment, profile, default), and for a loopback one whether the sandbox runs. undefined
 * for any other failure, or a URL this run did not use.
 */
import { isLoopbackHost } from '../client/base-url.js';
import { HttpFailure } from '../client/http-failure.js';
import { NetworkError } from '../domain/errors.js';
import { environmentVariableFor, type Settings } from './settings.js';

/** Failures that say the server is not there, not that it misbehaved. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'CONNECT_TIMEOUT']);

export function unreachableHint(error: unknown, seen: readonly Settings[]): string | undefined {
  if (!(error instanceof NetworkError) || !(error.cause instanceof HttpFailure)) return undefined;
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
