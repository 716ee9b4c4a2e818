/**
 * Every environment variable energy reads, in one list: `energy help environment`, its man page section and
 * docs/environment.md are written from it, and a test checks that every `ENERGY_*` name in src/ is here, so
 * that a new variable cannot go unlisted.
 */
export interface EnvironmentVariable {
  readonly name: string;
  /** What it sets, in a sentence or two (help wraps it). */
  readonly about: string;
}

/** The tool's own variables. An empty value counts as unset. */
export const TOOL_VARIABLES: readonly EnvironmentVariable[] = [
  { name: 'ENERGY_PROFILE', about: 'the config profile to use, as --profile (default "default").' },
  { name: 'ENERGY_BASE_URL', about: 'the API base URL, as --base-url: https://, or http:// on loopback only.' },
  { name: 'ENERGY_API_KEY', about: 'the API key; over the profile\'s "api-key".' },
  {
    name: 'ENERGY_API_SECRET',
    about: 'the API secret; over ENERGY_API_SECRET_FILE and the profile. Never taken from the command line.',
  },
  {
    name: 'ENERGY_API_SECRET_FILE',
    about:
      'a file holding the API secret (a Docker or Kubernetes secret, a systemd credential): a regular file of at most 64 KiB, one trailing line break removed.',
  },
  {
    name: 'ENERGY_TRON_NODE',
    about: 'the TRON node for address, estimate and ensure, as --tron-node (default https://api.trongrid.io).',
  },
  { name: 'ENERGY_TRON_API_KEY', about: 'the TRON node API key, sent as TRON-PRO-API-KEY.' },
  { name: 'ENERGY_TRON_API_KEY_FILE', about: 'a file holding the TRON node API key, read as ENERGY_API_SECRET_FILE.' },
  {
    name: 'ENERGY_CONFIG_DIR',
    about: 'the config folder (default $XDG_CONFIG_HOME/energy, else ~/.config/energy): profiles and the clock offset.',
  },
  {
    name: 'ENERGY_STATE_DIR',
    about:
      'the state folder (default $XDG_STATE_HOME/energy, else ~/.local/state/energy): the order journal and the ensure lock. In a container, keep it on a volume.',
  },
  {
    name: 'ENERGY_STATE_URL',
    about:
      'a postgresql:// URL (as --state-url): the journal, the ensure lock and the --max-spend ledger live in that database, shared by every host that names it. Its password is never printed.',
  },
  {
    name: 'ENERGY_TEST_SIGNAL_AT_SWITCH',
    about:
      "the project's own test suite only (e.g. before:SIGTERM): ensure --every sends itself that signal as its stop switch is installed. Never set it in production.",
  },
];

/** Variables of the wider world that energy honours. */
export const OTHER_VARIABLES: readonly EnvironmentVariable[] = [
  {
    name: 'HTTPS_PROXY, HTTP_PROXY, NO_PROXY',
    about: 'proxies for the API and the TRON node (lower case too; upper case wins); loopback never goes through one.',
  },
  { name: 'XDG_CONFIG_HOME, XDG_STATE_HOME, HOME', about: 'where the config and state folders are by default.' },
  {
    name: 'NO_COLOR, FORCE_COLOR, TERM',
    about: 'colour: off with NO_COLOR or TERM=dumb, on with FORCE_COLOR; else only on a terminal.',
  },
  { name: 'COLUMNS', about: "the width tables fit on a terminal (else the terminal's own)." },
  {
    name: 'LC_ALL, LC_CTYPE, LANG',
    about: 'a locale that is not UTF-8 gets ... -> >= instead of the typographic characters.',
  },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    about: 'a CA bundle for a private or proxy CA. NODE_TLS_REJECT_UNAUTHORIZED=0 is refused (exit 2).',
  },
  {
    name: 'PGPASSWORD, PGPASSFILE, PGSSLMODE',
    about:
      "with ENERGY_STATE_URL, libpq's meaning: the password from PGPASSWORD, else PGPASSFILE (or ~/.pgpass); the sslmode where the URL has none.",
  },
  {
    name: 'PGHOST, PGPORT, PGUSER, PGDATABASE, PGCONNECT_TIMEOUT',
    about: "with ENERGY_STATE_URL, libpq's meaning, for what the URL leaves out (connect timeout 10 s by default).",
  },
];
