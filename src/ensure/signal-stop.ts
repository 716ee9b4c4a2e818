/**
 * How `ensure --every` stops: SIGTERM and SIGINT ask the service to stop after the cycle in flight (its
 * requests, and any order, are let finish, so their outcome is journaled) instead of cutting it off; a
 * second one exits at once, as for every command. The entry's handlers are set aside meanwhile and put
 * back by `restore`.
 */
import { SIGNAL_EXIT_CODES } from '../domain/errors.js';
import type { StopSwitch } from './service-loop.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export function stopOnSignals(note: (line: string) => void): StopSwitch & { restore: () => void } {
  const saved = SIGNALS.map((name) => [name, process.listeners(name)] as const);
  let requested = false;
  let wake: (() => void) | undefined;
  const onSignal = (name: (typeof SIGNALS)[number]) => {
    if (requested) process.exit(SIGNAL_EXIT_CODES[name]);
    requested = true;
    note(`energy: ${name}: stopping after this cycle (send it again to stop at once)`);
    wake?.();
  };
  for (const name of SIGNALS) {
    process.removeAllListeners(name);
    process.on(name, onSignal);
  }
  return {
    get requested() {
      return requested;
    },
    wait: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    restore: () => {
      for (const [name, listeners] of saved) {
        process.removeListener(name, onSignal);
        for (const listener of listeners) process.on(name, listener as () => void);
      }
    },
  };
}
