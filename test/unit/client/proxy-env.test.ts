import { describe, expect, it } from 'vitest';
import { proxyFor, redactProxyUrl } from '../../../src/client/proxy-env.js';
import { parseBaseUrl } from '../../../src/client/base-url.js';

const api = new URL('https://api.example.com');
const chosen = (origin: URL, env: NodeJS.ProcessEnv) => proxyFor(origin, env)?.url.href;

describe('proxyFor', () => {
  it('uses HTTPS_PROXY for https and HTTP_PROXY for http, upper case first, without falling back', () => {
    expect(chosen(api, { HTTPS_PROXY: 'http://a:1', https_proxy: 'http://b:2' })).toBe('http://a:1/');
    expect(chosen(api, { https_proxy: 'http://b:2' })).toBe('http://b:2/');
    expect(chosen(api, { HTTP_PROXY: 'http://c:3' })).toBeUndefined();
    expect(
      chosen(new URL('http://node.example.com:8090'), { HTTP_PROXY: 'http://c:3', HTTPS_PROXY: 'http://a:1' }),
    ).toBe('http://c:3/');
    expect(chosen(api, {})).toBeUndefined();
    expect(chosen(api, { HTTPS_PROXY: '  ' })).toBeUndefined();
  });

  it('reads a proxy without a scheme as http://', () => {
    expect(chosen(api, { HTTPS_PROXY: 'proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
  });

  it.each(['localhost', '127.0.0.1', '127.4.5.6', '[::1]'])('never proxies loopback %s', (host) => {
    expect(chosen(new URL(`https://${host}:8443`), { HTTPS_PROXY: 'http://p:1' })).toBeUndefined();
    expect(parseBaseUrl(`http://${host}:8443`).protocol).toBe('http:');
  });

  // One loopback rule with the http:// check: a name a resolver may send elsewhere is not loopback.
  it.each(['app.localhost', 'localhost.', 'localhost.evil.com', '0.0.0.0'])(
    'proxies %s, which the http:// rule does not count as loopback either',
    (host) => {
      expect(chosen(new URL(`https://${host}:8443`), { HTTPS_PROXY: 'http://p:1' })).toBe('http://p:1/');
      expect(() => parseBaseUrl(`http://${host}:8443`)).toThrow(/not loopback/);
    },
  );

  it.each([
    ['api.example.com', true],
    ['example.com', true],
    ['.example.com', true],
    ['*.example.com', true],
    ['xample.com', false],
    ['other.org, api.example.com', true],
    ['other.org api.example.com', true],
    ['api.example.com:443', true],
    ['api.example.com:8443', false],
    ['*', true],
    ['', false],
  ])('NO_PROXY=%j bypasses https://api.example.com: %s', (noProxy, bypass) => {
    expect(chosen(api, { HTTPS_PROXY: 'http://p:1', NO_PROXY: noProxy }) === undefined).toBe(bypass);
    expect(chosen(api, { HTTPS_PROXY: 'http://p:1', no_proxy: noProxy }) === undefined).toBe(bypass);
  });

  it('matches IPv6 entries with brackets and ports', () => {
    const v6 = new URL('https://[2001:db8::1]:8443');
    expect(chosen(v6, { HTTPS_PROXY: 'http://p:1', NO_PROXY: '[2001:db8::1]:8443' })).toBeUndefined();
    expect(chosen(v6, { HTTPS_PROXY: 'http://p:1', NO_PROXY: '2001:db8::1' })).toBeUndefined();
    expect(chosen(v6, { HTTPS_PROXY: 'http://p:1', NO_PROXY: '[2001:db8::1]:443' })).toBe('http://p:1/');
  });

  it('refuses schemes it cannot speak and unparsable URLs with a usage error', () => {
    expect(() => proxyFor(api, { HTTPS_PROXY: 'socks5://p:1' })).toThrow(/socks5/);
    expect(() => proxyFor(api, { HTTPS_PROXY: 'http://[bad' })).toThrow(/not a valid proxy URL/);
  });
});

describe('redactProxyUrl', () => {
  it('hides the user name and password', () => {
    expect(redactProxyUrl(new URL('http://alice:s3cret@proxy:3128'))).toBe('http://[REDACTED]@proxy:3128');
    expect(redactProxyUrl(new URL('http://proxy:3128'))).toBe('http://proxy:3128');
  });
});
