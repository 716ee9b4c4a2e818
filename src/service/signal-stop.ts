/**
 * How `ensure --every` stops: SIGTERM and SIGINT ask the service to stop after the cycle in flight (its
 * requests, and any order, are let finish, so their outcome is journaled) instead of cutting it off, and
 * cut short the wait for the next cycle; a second one exits at once with the signal's status (143, 130), as
 * for every command. The entry's handlers are set aside meanwhile and put back by `restore`.
 */
import type { EventEmitter } from 'node:events';
import { SIGNAL_EXIT_CODES } from '../domain/cli-errors.js';
import type { StopSwitch } from './service-loop.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Where signals arrive: the process, or a test's emitter. */
export type SignalSource = Pick<EventEmitter, 'listeners' | 'on' | 'removeAllListeners' | 'removeListener'>;

export interface SignalStopOptions {
  note: (line: string) => void;
  /**
   * Ends the process at once with a signal's status: the entry's own exit (Terminal.exit), which records that
   * the status was decided, so that its backstop does not turn it into exit 1 "stopped before finishing".
   */
  exit: (code: number) => void;
  source?: SignalSource;
}

export function stopOnSignals({ note, exit, source = process }: SignalStopOptions): StopSwitch & {
  restore: () => void;
} {
  const saved = SIGNALS.map((name) => [name, source.listeners(name)] as const);
  let requested = false;
  let wake: (() => void) | undefined;
  const onSignal = (name: (typeof SIGNALS)[number]) => {
    if (requested) {
      note(`energy: ${name} again: stopping now, without waiting for the cycle to finish`);
      exit(SIGNAL_EXIT_CODES[name]);
      return;
    }
    requested = true;
    note(`energy: ${name}: stopping after this cycle (send it again to stop at once)`);
    wake?.();
  };
  for (const name of SIGNALS) {
    source.removeAllListeners(name);
    source.on(name, onSignal);
  }
  return {
    get requested() {
      return requested;
    },
    wait: (ms) =>
      new Promise<void>((resolve) => {
        if (requested) return resolve();
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      }),
    restore: () => {
      for (const [name, listeners] of saved) {
        source.removeListener(name, onSignal);
        for (const listener of listeners) source.on(name, listener as (...args: unknown[]) => void);
      }
    },
  };
}
