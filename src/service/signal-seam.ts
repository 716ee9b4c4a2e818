/**
 * A test seam (ENERGY_TEST_SIGNAL_AT_SWITCH=before:SIGTERM, after:SIGINT …): the process sends itself the
 * signal at the moment the service's stop switch is installed, which a test cannot time from outside, and
 * waits until it is handled. `before`: handled by the entry (its interrupt aborted) just before the switch
 * replaces the entry's handlers, the moment a signal used to be lost; `after`: by the switch, just after it
 * is installed. Unset in every real run.
 */
export async function signalAtSwitch(
  env: NodeJS.ProcessEnv,
  moment: 'before' | 'after',
  handled: () => boolean,
): Promise<void> {
  const [when, name] = (env.ENERGY_TEST_SIGNAL_AT_SWITCH ?? '').split(':');
  if (when !== moment || (name !== 'SIGTERM' && name !== 'SIGINT')) return;
  process.kill(process.pid, name);
  // A timer, not a bare promise: a signal's listener does not keep the event loop alive.
  for (let tries = 0; !handled() && tries < 2000; tries += 1) await new Promise((resolve) => setTimeout(resolve, 1));
}
