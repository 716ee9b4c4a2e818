/**
 * The checks that need no network: the config file and folder (private to the owner), the profile and
 * where each value comes from, the state folder writable, and order requests never settled.
 */
import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTING_NAMES } from '../config/names.js';
import { assertPrivate, describeFsError, ensurePrivateDir } from '../config/permissions.js';
import { describeOrigin } from '../config/secret-sources.js';
import type { Settings } from '../config/settings.js';
import { UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import { pendingRecordsIn } from '../state/folder/journal.js';
import { stalePendingNote } from './stale-pending.js';
import { journalDir } from '../journal/state-dir.js';
import { formatIsoTime } from '../output/format.js';
import { ok, warn, type CheckResult } from './check.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

/**
 * No config folder or file is not a fault: settings may come from options and the environment alone, as in
 * a container or a systemd unit (the documented ways to run the service), and the profile check says
 * what is still missing if anything is. An open folder or file is (assertPrivate throws).
 */
export function checkConfigFiles(dir: string, file: string, profileNames: string[] | Error): CheckResult {
  if (!existsSync(dir))
    return ok('config', `no config folder ${dir}: settings come from options and the environment only`);
  assertPrivate(dir, 'folder');
  if (!assertPrivate(file, 'file'))
    return ok('config', `no config file ${file}: settings come from options and the environment only`);
  if (profileNames instanceof Error) throw profileNames;
  const profiles = profileNames.length === 0 ? 'no profiles' : `profiles ${profileNames.join(', ')}`;
  return ok('config', `${file} (${mode(file)}, folder ${mode(dir)}): ${profiles}`);
}

/** Where each value comes from; a base URL, an API key and a secret (or where to read it) are required. */
export function checkProfile(settings: Settings): CheckResult {
  const parts = SETTING_NAMES.flatMap((name) => {
    const { source, origin, value } = settings.values[name];
    if (source === undefined || name.endsWith('-command')) return [];
    const where = origin === undefined ? source : `${source}: ${describeOrigin(origin)}`;
    return [
      `${name} from ${where}${name === 'base-url' || name === 'tron-node' ? ` (${printable(value ?? '', 120)})` : ''}`,
    ];
  });
  const detail = `profile ${settings.profile} (${settings.profileSource}); ${parts.join(', ') || 'nothing set'}`;
  const missing = (['api-key', 'api-secret'] as const).filter(
    (name) => settings.values[name].value === undefined && settings.values[name].origin === undefined,
  );
  if (missing.length > 0)
    return warn(
      'profile',
      `${detail}; no ${missing.join(' or ')}`,
      `energy config set ${missing[0]}, or ${missing[0] === 'api-key' ? 'ENERGY_API_KEY' : 'ENERGY_API_SECRET (or ENERGY_API_SECRET_FILE)'}`,
    );
  return ok('profile', detail);
}

/** The journal folder can be made private and written: an order must be journaled before it is sent. */
export function checkStateFolder(stateFolder: string): CheckResult {
  const folder = journalDir(stateFolder);
  ensurePrivateDir(folder, 'state');
  const probe = join(folder, `.doctor-${process.pid}`);
  try {
    writeFileSync(probe, '', { mode: 0o600 });
    rmSync(probe, { force: true });
  } catch (error) {
    throw new UsageError(`cannot write in the state folder ${folder}: ${describeFsError(error)}`, {
      hint: 'set ENERGY_STATE_DIR to a folder you own: orders are journaled there before they are sent',
    });
  }
  return ok('state', `${folder} is writable (${mode(folder)})`);
}

export function checkJournal(stateFolder: string, orderCommand: (verb: string) => string): CheckResult {
  const pending = existsSync(journalDir(stateFolder)) ? pendingRecordsIn(stateFolder).records : [];
  if (pending.length === 0) return ok('journal', 'no unsettled order requests');
  const requests = pending.length === 1 ? '1 order request' : `${pending.length} order requests`;
  return warn(
    'journal',
    `${requests} sent from this machine never got an answer (oldest ${formatIsoTime(pending[0]!.journaled_at)})${stalePendingNote(pending, orderCommand)}`,
    `see \`${orderCommand('pending')}\`, settle with \`${orderCommand('recover')}\` before ordering again`,
  );
}
