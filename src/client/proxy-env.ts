/**
 * Which proxy, if any, a request to an origin goes through, from the environment as curl, Go (gh) and the
 * AWS CLI read it: HTTPS_PROXY for https:// origins, HTTP_PROXY for http:// ones (upper case first, then
 * lower), and NO_PROXY to bypass. Loopback (the same hosts that may use http://, base-url.ts) is never proxied. Pure and cheap: the proxy code itself
 * (proxy-tunnel.ts) is loaded only when this returns a proxy.
 */
import { UsageError } from '../domain/errors.js';
import { isLoopbackHost } from './base-url.js';

export interface ProxyChoice {
  /** The proxy's URL, credentials included (never print it: see redactProxyUrl). */
  url: URL;
  /** The variable it came from, for messages. */
  variable: string;
}

export function proxyFor(origin: URL, env: NodeJS.ProcessEnv): ProxyChoice | undefined {
  const names = origin.protocol === 'https:' ? ['HTTPS_PROXY', 'https_proxy'] : ['HTTP_PROXY', 'http_proxy'];
  const variable = names.find((name) => (env[name] ?? '').trim() !== '');
  if (variable === undefined) return undefined;
  const host = bareHost(origin.hostname);
  if (
    isLoopbackHost(origin.hostname) ||
    bypassed(host, origin.port || (origin.protocol === 'https:' ? '443' : '80'), env.NO_PROXY ?? env.no_proxy ?? '')
  ) {
    return undefined;
  }
  return { url: parseProxyUrl(env[variable]!.trim(), variable), variable };
}

function parseProxyUrl(text: string, variable: string): URL {
  let url: URL;
  try {
    // "proxy.corp:3128" without a scheme means http://, as curl and Go read it.
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new UsageError(`${variable} is not a valid proxy URL`, {
      hint: `use the form http://host:port (or http://user:password@host:port)`,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${variable} uses ${url.protocol.slice(0, -1)}://, which energy does not support`, {
      hint: 'use an http:// or https:// proxy',
    });
  }
  return url;
}

/** The URL with any user name and password replaced, for --verbose and error messages. */
export function redactProxyUrl(url: URL): string {
  const auth = url.username !== '' || url.password !== '' ? '[REDACTED]@' : '';
  return `${url.protocol}//${auth}${url.host}`;
}

function bareHost(hostname: string): string {
  return hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * NO_PROXY: entries separated by commas or spaces; `*` bypasses everything; `example.com` and
 * `.example.com` match the domain and its subdomains; an entry with `:port` matches that port only;
 * IP addresses match exactly (no CIDR ranges).
 */
function bypassed(host: string, port: string, noProxy: string): boolean {
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    let entryHost = entry;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed !== null) [, entryHost = entry, entryPort] = bracketed;
    else if (entry.split(':').length === 2) [entryHost = entry, entryPort] = entry.split(':');
    if (entryPort !== undefined && entryPort !== port) continue;
    const name = bareHost(entryHost.replace(/^\*?\./, ''));
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}
