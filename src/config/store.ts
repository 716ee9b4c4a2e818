/**
 * The profile store: the only importer of `conf`, loaded on first use so that commands whose settings
 * come from flags and the environment never pay for it. Writes are atomic (conf writes a temporary file
 * and renames it), the file is 0600 and its folder 0700.
 */
import { join } from 'node:path';
import type Conf from 'conf';
import { UsageError } from '../errors.js';
import type { ProfileValues, SettingName } from './names.js';
import { CONFIG_FILE_NAME } from './paths.js';
import { PRIVATE_FILE_MODE, assertPrivate, describeFsError, ensurePrivateDir } from './permissions.js';

type StoreShape = { profiles: Record<string, ProfileValues> };

export class ConfigStore {
  #conf: Conf<StoreShape> | undefined;

  constructor(readonly dir: string) {}

  get path(): string {
    return join(this.dir, CONFIG_FILE_NAME);
  }

  /** A profile's settings; a store that does not exist yet reads as empty and is not created. */
  async profile(name: string): Promise<ProfileValues> {
    return (await this.findProfile(name)) ?? {};
  }

  /** A profile's settings, or undefined when the store has no profile of that name. */
  async findProfile(name: string): Promise<ProfileValues | undefined> {
    const profiles = await this.#profiles();
    return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  }

  /** The names of the stored profiles, sorted. */
  async profileNames(): Promise<string[]> {
    return Object.keys(await this.#profiles()).sort();
  }

  async #profiles(): Promise<Record<string, ProfileValues>> {
    assertPrivate(this.dir, 'folder');
    if (!assertPrivate(this.path, 'file')) return {};
    return (await this.#open()).get('profiles');
  }

  async set(profile: string, name: SettingName, value: string): Promise<void> {
    const conf = await this.#open();
    const profiles = conf.get('profiles');
    this.#write(() => conf.set('profiles', { ...profiles, [profile]: { ...profiles[profile], [name]: value } }));
  }

  /** Returns false when there was nothing to remove. */
  async unset(profile: string, name: SettingName): Promise<boolean> {
    const conf = await this.#open();
    const profiles = conf.get('profiles');
    const current = profiles[profile];
    if (current?.[name] === undefined) return false;
    const { [name]: _removed, ...rest } = current;
    this.#write(() => conf.set('profiles', { ...profiles, [profile]: rest }));
    return true;
  }

  #write(change: () => void): void {
    try {
      change();
    } catch (error) {
      throw new UsageError(`cannot write the config file ${this.path}: ${describeFsError(error)}`);
    }
  }

  async #open(): Promise<Conf<StoreShape>> {
    if (this.#conf !== undefined) return this.#conf;
    ensurePrivateDir(this.dir);
    assertPrivate(this.path, 'file');
    const { default: ConfClass } = await import('conf');
    try {
      this.#conf = new ConfClass<StoreShape>({
        cwd: this.dir,
        configName: 'config',
        projectName: 'energy',
        configFileMode: PRIVATE_FILE_MODE,
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: false,
        defaults: { profiles: {} },
      });
    } catch (error) {
      // Not the parser's message: it quotes the file, and the file holds the secret.
      throw new UsageError(`cannot read the config file ${this.path}: ${describeFsError(error)}`, {
        hint: 'fix the file by hand, or move it away to start afresh',
      });
    }
    return this.#conf;
  }
}
