/** Ending a call at once on Ctrl-C or SIGTERM (an AbortSignal), shared by the API transport and the TRON node client. */

/** Throws the signal's reason when it has already fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw signal.reason;
}

/**
 * Settles with `work`, or rejects with the abort reason as soon as the signal fires; `cutOff` then closes
 * what is in flight (the connection).
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, cutOff: () => void): Promise<T> {
  if (signal === undefined) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      // The request in flight is cut off; its own failure, which follows, is of no interest now.
      work.catch(() => undefined);
      cutOff();
      reject(signal.reason);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
