/**
 * How `ensure --every` stops: SIGTERM and SIGINT ask the service to stop after the cycle in flight (its
 * requests, and any order, are let finish, so their outcome is journaled) instead of cutting it off, and
 * cut short the wait for the next cycle; a second one exits at once with the signal's status (143, 130), as
 * for every command. The entry's handlers are set aside meanwhile and put back by `restore`. A signal the
 * entry took before the switch was installed (the program still loading, the options read, the status
 * server started) is not lost: the entry's interrupt is already aborted, and the switch starts requested.
 */
import type { EventEmitter } from 'node:events';
import { InterruptedError, SIGNAL_EXIT_CODES } from '../domain/cli-errors.js';
import type { StopSwitch } from './service-loop.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Where signals arrive: the process, or a test's emitter. */
export type SignalSource = Pick<EventEmitter, 'listeners' | 'on' | 'removeListener'>;

export interface SignalStopOptions {
  note: (line: string) => void;
  /**
   * Ends the process at once with a signal's status: the entry's own exit (Terminal.exit), which records that
   * the status was decided, so that its backstop does not turn it into exit 1 "stopped before finishing".
   */
  exit: (code: number) => void;
  source?: SignalSource;
  /** The entry's interrupt (Terminal.interrupt): aborted when a signal came before the switch was installed. */
  earlier?: AbortSignal | undefined;
}

/** The signal's name behind an aborted interrupt: its reason is the name, or an InterruptedError. */
function signalName(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof InterruptedError) return reason.signal;
  return typeof reason === 'string' ? reason : 'a signal';
}

export function stopOnSignals({ note, exit, source = process, earlier }: SignalStopOptions): StopSwitch & {
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
  // The switch's listener first, then the entry's removed one by one: a signal's listeners never drop to
  // none, so Node keeps its watcher. Closing it (removeAllListeners) dropped a signal that had arrived
  // while start-up ran without yielding to the event loop: Node had not told the entry yet, and the
  // closed watcher never told anyone (SIGTERM 0.25 s after the start was lost, and the service bought).
  for (const [name, listeners] of saved) {
    source.on(name, onSignal);
    for (const listener of listeners) source.removeListener(name, listener as (...args: unknown[]) => void);
  }
  if (earlier?.aborted === true) {
    requested = true;
    note(`energy: ${signalName(earlier)} while starting: stopping before the first cycle`);
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
        for (const listener of listeners) source.on(name, listener as (...args: unknown[]) => void);
        source.removeListener(name, onSignal);
      }
    },
  };
}
