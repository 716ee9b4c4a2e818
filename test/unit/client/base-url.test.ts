import { describe, expect, it } from 'vitest';
import {
  isLoopbackHost,
  isPrivateAddress,
  parseBaseUrl,
  withoutTrailingSlashes,
} from '../../../src/client/base-url.js';
import { ExitCode, UsageError } from '../../../src/domain/errors.js';

describe('parseBaseUrl', () => {
  it.each([
    'https://api.example.com',
    'https://api.example.com/prefix',
    'http://localhost:8787',
    'http://127.0.0.1:18787',
    'http://127.9.9.9',
    'http://[::1]:8080',
  ])('accepts %s', (text) => {
    expect(parseBaseUrl(text).href.startsWith(text.replace(/\/$/, ''))).toBe(true);
  });

  it.each([
    ['https://api.example.com/v1', 'https://api.example.com'],
    ['https://api.example.com/V1//', 'https://api.example.com'],
    ['https://api.example.com/energy/v1/', 'https://api.example.com/energy'],
  ])('refuses %s, which ends in /v1, naming the URL without it', (text, without) => {
    expect(() => parseBaseUrl(text)).toThrow(`give it without, as ${without}`);
  });

  it.each(['https://api.example.com/v10', 'https://api.example.com/v1x/', 'https://api.example.com/xv1/api'])(
    'accepts %s, which does not end in /v1',
    (text) => {
      expect(parseBaseUrl(text).href).toBe(text);
    },
  );

  it('cuts only the slashes a path ends in', () => {
    expect(['/', '//', '', '/api', '/api/', '/api///', '/a//b/'].map(withoutTrailingSlashes)).toEqual([
      '',
      '',
      '',
      '/api',
      '/api',
      '/api',
      '/a//b',
    ]);
  });

  it.each([
    ['http://example.com', /not loopback/],
    ['http://10.0.0.1', /not loopback/],
    ['http://localhost.evil.com', /not loopback/],
    ['http://128.0.0.1', /not loopback/],
    ['ftp://example.com', /https/],
    ['example.com', /not a URL/],
    ['https://user:pw@example.com', /user name or password/],
    ['https://example.com/?x=1', /query or a fragment/],
  ])('refuses %s with exit 2', (text, message) => {
    const attempt = () => parseBaseUrl(text);
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as UsageError).exitCode).toBe(ExitCode.usage);
    }
  });

  it('knows the loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.255.0.3', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '::1', 'localhost.', '192.168.1.1'].some(isLoopbackHost)).toBe(false);
    // 127.d.d.d with one to three digits each, nothing before or after.
    const near = [
      '127.0.0',
      '127.0.0.1.',
      '127.0.0.1234',
      '127..0.1',
      '1127.0.0.1',
      '127.0.0.a',
      '127.0.0.1 ',
      '127.0.0.',
    ];
    expect(near.filter(isLoopbackHost)).toEqual([]);
  });
});

describe('http:// for a TRON node on a private address', () => {
  it.each([
    'http://10.0.0.5:8090',
    'http://172.16.0.1',
    'http://172.31.255.255',
    'http://192.168.1.20:8090',
    'http://[fd00::5]:8090',
    'http://[fc12::1]',
  ])('allows %s for the TRON node only', (text) => {
    expect(parseBaseUrl(text, 'TRON node URL').protocol).toBe('http:');
    expect(() => parseBaseUrl(text)).toThrow(/not loopback/);
  });

  it.each([
    'http://172.32.0.1',
    'http://11.0.0.1',
    'http://192.169.0.1',
    'http://node.lan:8090',
    'http://[fe80::1]',
    'http://10.0.0.5.example.com',
  ])('refuses %s (public, or a name that could resolve anywhere)', (text) => {
    expect(() => parseBaseUrl(text, 'TRON node URL')).toThrow(/not loopback/);
    expect(isPrivateAddress(new URL(text).hostname)).toBe(false);
  });
});
