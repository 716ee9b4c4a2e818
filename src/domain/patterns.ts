/** Text shapes the spec defines, shared by the client's checks, the CLI's parsers and the sandbox. */

/** An integer written as text, as the spec allows for `limit` and `duration_hours` items. */
export const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;

/** A UUID in its canonical 8-4-4-4-12 hexadecimal form (either case). */
export const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A client_request_id we send: letters, digits and `._:-`, at most 64 (safe in logs, shells and file names). */
export const CLIENT_REQUEST_ID_TEXT = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * A profile name: letters, digits, `-` and `_`, at most 64, starting with a letter or digit. No dots: the
 * store addresses nested keys by name, and a profile name should be safe in a file name and a shell.
 */
export const PROFILE_NAME_TEXT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
