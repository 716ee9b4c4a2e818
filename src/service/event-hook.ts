/**
 * `ensure --every --on-event <command>`: the user's command is run once per event, with the event as one
 * JSON object on its standard input (a Slack webhook with curl, a mail). Hooks run beside the service,
 * never in its way: a few at a time, each stopped after a bounded time, a failure or a timeout logged once
 * and forgotten; when events come faster than the hook takes them, the excess is dropped and counted, never
 * queued without bound. A hook is over when its process exits, whatever it leaves behind (a helper started
 * with `setsid` or `&` holding its output open is not waited for). At shutdown the hooks running keep
 * their bound and the events still waiting are dropped and counted. No credential variable reaches the
 * hook's environment (hook-env.ts).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { printable } from '../domain/printable.js';
import { commandWords, needsShell } from '../domain/shell-syntax.js';
import { hookEnvironment } from './hook-env.js';

/** A hook still running after this is stopped (SIGTERM to its process group, SIGKILL 2 s later). */
export const HOOK_TIMEOUT_MS = 10_000;
const KILL_AFTER_MS = 2_000;
/** After the hook exits, what it printed is read this long more (its pipes may hold the last lines). */
const OUTPUT_GRACE_MS = 200;
const HOOKS_AT_ONCE = 2;
const MAX_WAITING = 100;
/** What a failing hook printed, kept for its log line: the first 2 KiB (the rest is read and dropped). */
const OUTPUT_KEPT = 2048;

export interface EventHookOptions {
  command: string;
  /** One stderr line (a note) per hook that failed, timed out, or events dropped. */
  note: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Whether a process of the hook's group is still there (what it started, once the hook has exited). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** How a hook ended, in words (a shell's 126 and 127 said as what they mean). */
function endedHow(code: number | null, signal: NodeJS.Signals | null): string | undefined {
  if (signal !== null) return `was stopped by ${signal}`;
  if (code === 0) return undefined;
  if (code === 127) return 'was not found (the shell answered 127)';
  if (code === 126) return 'could not be run (the shell answered 126: not executable)';
  return `failed with exit status ${code}`;
}

export class EventHook {
  readonly #waiting: object[] = [];
  readonly #running = new Set<Promise<void>>();
  #dropped = 0;
  #closing = false;

  constructor(private readonly options: EventHookOptions) {}

  /** Queues the event for the hook; returns at once. */
  emit(event: object): void {
    if (this.#closing) return;
    if (this.#waiting.length >= MAX_WAITING) {
      this.#dropped += 1;
      return;
    }
    this.#waiting.push(event);
    this.#pump();
  }

  /** Waits for the hooks running and waiting (each still bounded by its timeout). */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.race(this.#running);
  }

  /**
   * At shutdown: the events still waiting are dropped (and counted in a note); the hooks running are let
   * end within their bound. Nothing is started after this.
   */
  async close(): Promise<void> {
    this.#closing = true;
    const dropped = this.#waiting.splice(0).length + this.#dropped;
    this.#dropped = 0;
    if (dropped > 0) this.options.note(`energy: on-event: ${dropped} waiting event(s) dropped at shutdown`);
    await this.drain();
  }

  #pump(): void {
    if (this.#dropped > 0) {
      this.options.note(`energy: on-event: ${this.#dropped} event(s) dropped: the hook is slower than the events`);
      this.#dropped = 0;
    }
    while (!this.#closing && this.#running.size < HOOKS_AT_ONCE && this.#waiting.length > 0) {
      const event = this.#waiting.shift()!;
      const run = this.#run(event).finally(() => {
        this.#running.delete(run);
        this.#pump();
      });
      this.#running.add(run);
    }
  }

  #run(event: object): Promise<void> {
    const { command, note } = this.options;
    const timeoutMs = this.options.timeoutMs ?? HOOK_TIMEOUT_MS;
    const name = (event as { event?: unknown }).event;
    const fail = (why: string) => note(`energy: on-event: \`${printable(command, 200)}\` for ${String(name)} ${why}`);
    return new Promise<void>((resolve) => {
      let child: ChildProcess;
      // Its own process group: a timeout stops the shell and what it started (curl, sendmail).
      const options: SpawnOptions = {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: hookEnvironment(this.options.env ?? process.env),
        detached: true,
      };
      try {
        child = needsShell(command)
          ? spawn(command, { ...options, shell: true })
          : spawn(commandWords(command)[0]!, commandWords(command).slice(1), options);
      } catch (error) {
        fail(`could not start: ${error instanceof Error ? error.message : String(error)}`);
        return resolve();
      }
      let output = '';
      const keep = (chunk: Buffer) => {
        if (output.length < OUTPUT_KEPT) output += chunk.toString('utf8').slice(0, OUTPUT_KEPT - output.length);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      const stop = (signal: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // Already gone.
        }
      };
      const timers: NodeJS.Timeout[] = [];
      let killTimer: NodeJS.Timeout | undefined;
      let timedOut = false;
      let settled = false;
      /** Once: the note (if any) said, the timers cleared, the pipes no longer read (a helper may hold them). */
      const settle = (why: string | undefined) => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        if (killTimer !== undefined && !groupAlive(child.pid!)) clearTimeout(killTimer);
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.stdin?.destroy();
        if (why !== undefined) fail(why);
        resolve();
      };
      const said = () => (output.trim() === '' ? '' : `: ${printable(output.trim(), 300)}`);
      timers.push(
        setTimeout(() => {
          timedOut = true;
          stop('SIGTERM');
          // A hook that ignores SIGTERM is killed, and so is what it started in its group, even once the
          // hook itself has ended (this timer is cleared at the settling only when its group is gone).
          killTimer = setTimeout(() => stop('SIGKILL'), KILL_AFTER_MS);
        }, timeoutMs),
      );
      child.on('error', (error: NodeJS.ErrnoException) =>
        settle(error.code === 'ENOENT' ? 'was not found' : `could not run (${error.code ?? error.message})`),
      );
      child.on('exit', (code, signal) => {
        const why = timedOut ? `was stopped after ${timeoutMs / 1000} s` : endedHow(code, signal);
        const end = () => settle(why === undefined ? undefined : `${why}${said()}`);
        // Its last lines may still be in the pipes: read until they close, or for a moment at most.
        child.on('close', end);
        timers.push(setTimeout(end, OUTPUT_GRACE_MS));
      });
      // A hook that does not read its input must not fail the write.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(`${JSON.stringify(event)}\n`);
    });
  }
}
