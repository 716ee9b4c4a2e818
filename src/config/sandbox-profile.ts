/**
 * Which profile `energy sandbox` may write its URL and credentials into: one that holds none of those
 * settings, or one that already points at a sandbox on loopback. Anything else is somebody's real server
 * (`ENERGY_PROFILE=prod` exported in a shell), whose key and secret would be lost without a word.
 */
import { isLoopbackHost } from '../client/base-url.js';
import { printable } from '../domain/printable.js';
import type { ProfileValues, SettingName } from './names.js';

/** What the sandbox writes (and so would overwrite). */
export const SANDBOX_SETTINGS: readonly SettingName[] = ['base-url', 'api-key', 'api-secret', 'tron-node'];

/** Undefined when the sandbox may write; else what the profile holds that it would overwrite. */
export function sandboxWouldOverwrite(values: ProfileValues): string | undefined {
  const held = SANDBOX_SETTINGS.filter((name) => values[name] !== undefined);
  if (held.length === 0) return undefined;
  const baseUrl = values['base-url'];
  if (baseUrl !== undefined && pointsAtLoopback(baseUrl)) return undefined;
  return baseUrl === undefined ? held.join(', ') : `the settings of ${printable(baseUrl)}`;
}

function pointsAtLoopback(text: string): boolean {
  try {
    return isLoopbackHost(new URL(text).hostname);
  } catch {
    return false;
  }
}
