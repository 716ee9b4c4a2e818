/**
 * The one pause: a plain timer, shared by every layer that waits (retries, polling, lock contention).
 * Here in domain/ only because every layer may import domain/; node:timers/promises would be one more
 * module to load on every command's path.
 */

/** Resolves after `ms` milliseconds; with a signal, rejects with its reason as soon as it fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal === undefined) return new Promise((resolve) => setTimeout(resolve, ms));
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
