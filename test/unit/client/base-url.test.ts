import { describe, expect, it } from 'vitest';
import { isLoopbackHost, parseBaseUrl } from '../../../src/client/base-url.js';
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
  });
});
