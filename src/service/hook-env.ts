/**
 * The environment an `--on-event` hook runs with: the service's, without any credential. Removed: every
 * variable that names a secret of this tool or where one is (ENERGY_API_KEY, ENERGY_API_SECRET and its
 * _FILE, ENERGY_TRON_API_KEY and its _FILE, any ENERGY_…_FILE or ENERGY_…_COMMAND, any ENERGY_ variable
 * whose name says KEY, SECRET, TOKEN, PASSWORD or CREDENTIAL, the state store's URL, which may carry a
 * password) and PostgreSQL's own PGPASSWORD and PGPASSFILE. A hook needs its own credentials (a webhook's
 * URL), given in its command or its own files, never the API's.
 */

const CREDENTIAL_WORDS = /KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL/;
const OTHER_CREDENTIALS = new Set(['ENERGY_STATE_URL', 'PGPASSWORD', 'PGPASSFILE']);

/** Whether a variable of the service's environment is kept from hooks. */
export function isCredentialVariable(name: string): boolean {
  const upper = name.toUpperCase();
  if (OTHER_CREDENTIALS.has(upper)) return true;
  if (!upper.startsWith('ENERGY_')) return false;
  return CREDENTIAL_WORDS.test(upper) || upper.endsWith('_FILE') || upper.endsWith('_COMMAND');
}

export function hookEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isCredentialVariable(name)));
}
