/**
 * What `order pending` advises for records this profile cannot settle: which stored profiles went to their
 * API (and key), and the `order recover` to run for each.
 */
import type { JournalRecord } from '../journal/record.js';

/** What is read of the config store: its profiles' names and settings (no config/ import here). */
export interface ProfileReader {
  profileNames(): Promise<string[]>;
  findProfile(name: string): Promise<Readonly<Record<string, string | undefined>> | undefined>;
}

/**
 * The stored profiles that can settle `records` sent elsewhere: for each record, the profiles with its API
 * (base URL) and key, else those with its API alone. A config file that cannot be read names none.
 */
export async function profilesFor(
  store: ProfileReader,
  records: readonly JournalRecord[],
): Promise<Map<JournalRecord, string[]>> {
  const found = new Map<JournalRecord, string[]>();
  if (records.length === 0) return found;
  const { keyIdOf } = await import('../journal/record.js');
  const profiles: { name: string; origin: string | undefined; keyId: string | undefined }[] = [];
  try {
    for (const name of await store.profileNames()) {
      const values = (await store.findProfile(name)) ?? {};
      const url = values['base-url'];
      const origin = url !== undefined && URL.canParse(url) ? new URL(url).href.replace(/\/+$/, '') : undefined;
      const key = values['api-key'];
      profiles.push({ name, origin, keyId: key === undefined ? undefined : keyIdOf(key) });
    }
  } catch {
    return found;
  }
  for (const record of records) {
    const sameApi = profiles.filter((profile) => profile.origin === record.origin);
    const sameKey = sameApi.filter((profile) => profile.keyId === record.key_id);
    const names = (sameKey.length > 0 ? sameKey : sameApi).map((profile) => profile.name);
    if (names.length > 0) found.set(record, names);
  }
  return found;
}

/**
 * The recover hint only for what this profile can settle: `order recover` here settles only the records
 * sent to this profile's API with its key (HERE yes), and suggesting it for others settles nothing.
 */
export function recoverAdvice(
  here: readonly (boolean | null)[],
  recover: string,
  profiles: ReadonlyMap<JournalRecord, string[]>,
): string {
  if (here.includes(null))
    return 'no credentials here to tell which API these went to: run `order recover` with the --profile or --base-url they were sent with';
  const mine = here.filter((h) => h === true).length;
  const others = here.length - mine;
  // The profiles whose base URL (and key) the records went to, each command named once.
  const named = [
    ...new Set(
      [...profiles.values()].map((names) =>
        names.map((name) => `\`energy --profile ${name} order recover\``).join(' or '),
      ),
    ),
  ];
  const rest = others - profiles.size;
  const how = [
    ...named,
    ...(rest > 0 ? [`${named.length > 0 ? 'the rest ' : ''}with the --profile or --base-url they were sent with`] : []),
  ].join('; ');
  const elsewhere = `${others === here.length ? 'all' : others} of them (HERE no) went to another API or key: recover ${named.length > 0 ? 'them with ' : 'those '}${how}`;
  if (mine === 0) return elsewhere;
  const settle = `settle the ${mine} marked HERE yes with: ${recover}`;
  return others === 0 ? settle : `${settle}; ${elsewhere}`;
}
