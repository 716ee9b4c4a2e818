/** The API's timestamps: how to read `created_at` / `updated_at`, whose unit the spec does not give. */

/** Values this large can only be milliseconds (as seconds they would be past the year 5000). */
const MILLISECONDS_THRESHOLD = 100_000_000_000;

/** An API timestamp in milliseconds, whichever unit it was sent in. */
export function timestampMs(value: number): number {
  return value >= MILLISECONDS_THRESHOLD ? value : value * 1000;
}
