/**
 * The profile store: one JSON file, `{"profiles": {name: {setting: value}}}`, 0600 in a 0700 folder.
 * Reading is a plain file read (no store library on the path of every command); a change is a
 * read-modify-write under an exclusive lock, written durably (temporary file, fsync, rename), so parallel
 * `config set` runs all keep their values and a crash never leaves half a file.
 *
 * Our own rather than a store library: the one used before (conf) loaded ajv and its schema compiler at start-up (110–170 ms measured on
 * our CI machine, against ~2 ms for node:fs), and had no lock, so parallel writers lost values.
 */
import { readRegularFileSync } from '../storage/bounded-read.js';
import { join } from 'node:path';
import { UsageError } from '../domain/errors.js';
import { printable } from '../domain/printable.js';
import type { ProfileValues, SettingName } from './names.js';
import { CONFIG_FILE_NAME } from './paths.js';
import { assertPrivate, describeFsError, ensurePrivateDir } from './permissions.js';

/**
 * A profile written whole by a tool rather than by hand carries this key, naming the tool (`energy sandbox`
 * writes only into a profile it made). Any `set` by hand removes it: from then on the profile is the user's.
 */
export const MADE_BY = 'made-by';
export type StoredProfile = ProfileValues & { [MADE_BY]?: string };
type Profiles = Record<string, StoredProfile>;

export class ConfigStore {
  /** `note` says on stderr that a change waits for another command's (rare, but a stalled script says why). */
  constructor(
    readonly dir: string,
    private readonly note?: (line: string) => void,
  ) {}

  get path(): string {
    return join(this.dir, CONFIG_FILE_NAME);
  }

  /** A profile's settings; a store that does not exist yet reads as empty and is not created. */
  async profile(name: string): Promise<ProfileValues> {
    return (await this.findProfile(name)) ?? {};
  }

  /** A profile's settings, or undefined when the store has no profile of that name. */
  async findProfile(name: string): Promise<StoredProfile | undefined> {
    const profiles = this.#readChecked();
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  }

  /** The names of the stored profiles, sorted. */
  async profileNames(): Promise<string[]> {
    return Object.keys(this.#readChecked()).sort();
  }

  async set(profile: string, name: SettingName, value: string): Promise<void> {
    await this.#update((profiles) => {
      const { [MADE_BY]: _mark, ...current } = profiles[profile] ?? {};
      profiles[profile] = { ...current, [name]: value };
      return true;
    });
  }

  /**
   * Replaces a whole profile under the lock with what `make` returns for its current settings (undefined
   * when there is no such profile), so that a check of what the profile holds and the write are one step.
   * `make` may throw to refuse; nothing is written then.
   */
  async replaceProfile(profile: string, make: (current: StoredProfile | undefined) => StoredProfile): Promise<void> {
    await this.#update((profiles) => {
      profiles[profile] = make(Object.hasOwn(profiles, profile) ? profiles[profile] : undefined);
      return true;
    });
  }

  /** Removes a profile and all its settings; returns false when there was no such profile. */
  async deleteProfile(profile: string): Promise<boolean> {
    return this.#update((profiles) => {
      if (!Object.hasOwn(profiles, profile)) return false;
      delete profiles[profile];
      return true;
    });
  }

  /** Returns false when there was nothing to remove. */
  async unset(profile: string, name: SettingName): Promise<boolean> {
    return this.#update((profiles) => {
      const current = profiles[profile];
      if (current?.[name] === undefined) return false;
      const { [name]: _removed, ...rest } = current;
      profiles[profile] = rest;
      return true;
    });
  }

  /** Applies `change` to the latest profiles under the lock; writes only when it says something changed. */
  async #update(change: (profiles: Profiles) => boolean): Promise<boolean> {
    ensurePrivateDir(this.dir);
    // Loaded only to write: reading commands never pay for node:fs/promises and the lock.
    const [{ LockTimeoutError, withFileLock }, { writeDurably }] = await Promise.all([
      import('../storage/file-lock.js'),
      import('../storage/durable-file.js'),
    ]);
    try {
      return await withFileLock(
        `${this.path}.lock`,
        async () => {
          const profiles = this.#readChecked();
          if (!change(profiles)) return false;
          try {
            await writeDurably(this.path, `${JSON.stringify({ profiles }, null, '\t')}\n`);
          } catch (error) {
            throw new UsageError(`cannot write the config file ${this.path}: ${describeFsError(error)}`);
          }
          return true;
        },
        {
          onWait: (holder) =>
            this.note?.(
              `energy: the config file is being changed by process ${holder.pid} on host ${printable(holder.host, 64)}: waiting up to 10 s for it`,
            ),
        },
      );
    } catch (error) {
      if (error instanceof LockTimeoutError) {
        throw new UsageError(`cannot change the config file: ${error.message} for more than 10 s`, {
          hint: 'another energy command is changing it; try again when it has finished',
        });
      }
      throw error;
    }
  }

  #readChecked(): Profiles {
    assertPrivate(this.dir, 'folder');
    if (!assertPrivate(this.path, 'file')) return {};
    let text: string;
    try {
      text = readRegularFileSync(this.path);
    } catch (error) {
      throw new UsageError(`cannot read the config file ${this.path}: ${describeFsError(error)}`);
    }
    return parseProfiles(text, this.path);
  }
}

/** The profiles in the file's text. Never quotes the text in an error: the file holds the secret. */
function parseProfiles(text: string, path: string): Profiles {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw corrupt(path, 'not valid JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw corrupt(path, 'not a JSON object');
  const profiles = (data as { profiles?: unknown }).profiles ?? {};
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles))
    throw corrupt(path, '"profiles" is not an object');
  for (const values of Object.values(profiles)) {
    if (
      typeof values !== 'object' ||
      values === null ||
      Object.values(values).some((value) => typeof value !== 'string')
    ) {
      throw corrupt(path, 'a profile is not an object of strings');
    }
  }
  return profiles as Profiles;
}

function corrupt(path: string, problem: string): UsageError {
  return new UsageError(`cannot read the config file ${path}: ${problem}`, {
    hint: 'fix the file by hand, or move it away to start afresh',
  });
}
