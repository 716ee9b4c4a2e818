/**
 * Which profile `energy sandbox` may write its URL and credentials into: a new or empty one, or one it made
 * itself (marked `made-by`, and not changed by hand since). Anything else is somebody's server, loopback
 * included (a local staging server, an SSH tunnel to the real API): its key and secret would be lost
 * without a word, and after Ctrl-C the profile would point at a dead port.
 */
import { isLoopbackHost } from '../client/base-url.js';
import { printable } from '../domain/printable.js';
import { SETTING_NAMES, type SettingName } from './names.js';
import { UsageError } from '../domain/errors.js';
import { MADE_BY, type ConfigStore, type StoredProfile } from './store.js';

const SANDBOX_MARK = 'energy sandbox';

/** The whole profile the sandbox writes, marked as its own. */
export function sandboxProfile(url: string, apiKey: string, apiSecret: string): StoredProfile {
  // The sandbox is also the profile's TRON node (/wallet/...), coherent with its orders.
  return { 'base-url': url, 'api-key': apiKey, 'api-secret': apiSecret, 'tron-node': url, [MADE_BY]: SANDBOX_MARK };
}

/** Undefined when the sandbox may write; else what the profile holds that it would lose. */
export function sandboxWouldOverwrite(values: StoredProfile | undefined): string | undefined {
  if (values === undefined || values[MADE_BY] === SANDBOX_MARK || isEarlierSandbox(values)) return undefined;
  const held = SETTING_NAMES.filter((name) => values[name] !== undefined);
  if (held.length === 0) return undefined;
  const baseUrl = values['base-url'];
  return baseUrl === undefined ? held.join(', ') : `the settings of ${printable(baseUrl)}`;
}

/** What the sandbox asks of the config store. */
type ProfileStore = Pick<ConfigStore, 'findProfile' | 'replaceProfile'>;

/** Exit 2 when the profile holds settings the sandbox did not write: checked before it listens. */
export async function refuseToOverwrite(store: ProfileStore, profile: string): Promise<void> {
  const held = sandboxWouldOverwrite(await store.findProfile(profile));
  if (held !== undefined) throw overwriteRefused(profile, held);
}

/** Writes the sandbox's profile, checked again under the store's lock: another command may have written it since. */
export async function saveSandboxProfile(
  store: ProfileStore,
  profile: string,
  sandbox: { url: string; apiKey: string; apiSecret: string },
): Promise<void> {
  await store.replaceProfile(profile, (current) => {
    const held = sandboxWouldOverwrite(current);
    if (held !== undefined) throw overwriteRefused(profile, held);
    return sandboxProfile(sandbox.url, sandbox.apiKey, sandbox.apiSecret);
  });
}

function overwriteRefused(profile: string, held: string): UsageError {
  const another = profile === 'sandbox' ? 'sandbox-2' : 'sandbox';
  return new UsageError(`profile "${profile}" holds ${held}: the sandbox writes only into a profile it made`, {
    hint:
      `choose a new profile for the sandbox (--profile ${another}), or run it with --no-save; ` +
      `if the profile is an old sandbox's, remove it first: energy config delete-profile ${profile}`,
  });
}

/**
 * A profile written by a sandbox before profiles were marked: exactly what it wrote then, with a key it
 * made up (`sbx_` and 16 hex digits) and itself as the TRON node, which no other server's profile holds.
 */
function isEarlierSandbox(values: StoredProfile): boolean {
  const written: readonly SettingName[] = ['base-url', 'api-key', 'api-secret', 'tron-node'];
  const others = SETTING_NAMES.filter((name) => !written.includes(name) && values[name] !== undefined);
  const baseUrl = values['base-url'];
  return (
    others.length === 0 &&
    baseUrl !== undefined &&
    pointsAtLoopback(baseUrl) &&
    values['tron-node'] === baseUrl &&
    /^sbx_[0-9a-f]{16}$/.test(values['api-key'] ?? '') &&
    values['api-secret'] !== undefined
  );
}

function pointsAtLoopback(text: string): boolean {
  try {
    return isLoopbackHost(new URL(text).hostname);
  } catch {
    return false;
  }
}
