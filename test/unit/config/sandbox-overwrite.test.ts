/**
 * Which profile `energy sandbox` may write over: only one it made (marked `made-by: energy sandbox`), or one
 * an earlier sandbox wrote before profiles were marked (exactly its four settings, a made-up `sbx_` key, and
 * the sandbox's own loopback URL as the TRON node). Anything else is somebody's server: what it would lose is
 * named, and the sandbox writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { sandboxWouldOverwrite } from '../../../src/config/sandbox-profile.js';
import type { StoredProfile } from '../../../src/config/store.js';

const OLD_SANDBOX: StoredProfile = {
  'base-url': 'http://127.0.0.1:41234',
  'api-key': 'sbx_0123456789abcdef',
  'api-secret': 'sandbox-secret',
  'tron-node': 'http://127.0.0.1:41234',
};

describe('sandboxWouldOverwrite', () => {
  it('its own mark, or an earlier sandbox’s unmarked profile, or nothing there: it may write', () => {
    expect(sandboxWouldOverwrite(undefined)).toBeUndefined();
    expect(sandboxWouldOverwrite({ ...OLD_SANDBOX, 'made-by': 'energy sandbox' })).toBeUndefined();
    expect(sandboxWouldOverwrite(OLD_SANDBOX)).toBeUndefined();
  });

  it.each(['terraform', 'energy sandbox (copied by hand)', ''])(
    'another made-by mark (%j) is no consent: the settings of its server would be lost',
    (mark) => {
      const profile = { 'base-url': 'https://staging.example.com', 'api-key': 'ak_live', 'made-by': mark };
      expect(sandboxWouldOverwrite(profile)).toBe('the settings of https://staging.example.com');
    },
  );

  it.each(['https://api.example.com', 'http://10.0.0.7:8080'])(
    'an unmarked profile shaped like an old sandbox’s but pointing off this host (%s) is somebody’s server',
    (url) => {
      const profile = { ...OLD_SANDBOX, 'base-url': url, 'tron-node': url };
      expect(sandboxWouldOverwrite(profile)).toBe(`the settings of ${url}`);
    },
  );

  it.each([
    ['tron-api-key', 'tk_user'],
    ['api-secret-command', 'pass show energy'],
  ] as const)('an old sandbox profile with a user’s %s added is theirs now: not overwritten', (name, value) => {
    expect(sandboxWouldOverwrite({ ...OLD_SANDBOX, [name]: value })).toBe('the settings of http://127.0.0.1:41234');
  });
});
