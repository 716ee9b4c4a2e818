/**
 * `ensure --every --on-event <command>`: the user's command is run once per event, with the event as one
 * JSON object on its standard input (a Slack webhook with curl, a mail). Hooks run beside the service,
 * never in its way: a few at a time, each stopped after a bounded time, a failure or a timeout logged and
 * forgotten; when events come faster than the hook takes them, the excess is dropped and counted, never
 * queued without bound. The API credentials are not passed on to the hook's environment.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { printable } from '../domain/printable.js';
import { commandWords, needsShell } from '../domain/shell-syntax.js';

/** A hook still running after this is stopped (SIGTERM to its process group, SIGKILL 2 s later). */
export const HOOK_TIMEOUT_MS = 10_000;
const HOOKS_AT_ONCE = 2;
const MAX_WAITING = 100;
/** What a failing hook printed, kept for its log line. */
const OUTPUT_KEPT = 2048;
const SECRET_VARIABLES = ['ENERGY_API_KEY', 'ENERGY_API_SECRET', 'ENERGY_API_SECRET_FILE', 'ENERGY_TRON_API_KEY'];

export interface EventHookOptions {
  command: string;
  /** One stderr line (a note) per hook that failed, timed out, or events dropped. */
  note: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export class EventHook {
  readonly #waiting: object[] = [];
  readonly #running = new Set<Promise<void>>();
  #dropped = 0;

  constructor(private readonly options: EventHookOptions) {}

  /** Queues the event for the hook; returns at once. */
  emit(event: object): void {
    if (this.#waiting.length >= MAX_WAITING) {
      this.#dropped += 1;
      return;
    }
    this.#waiting.push(event);
    this.#pump();
  }

  /** Waits for the hooks running and waiting (each still bounded by its timeout): at shutdown. */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.race(this.#running);
  }

  #pump(): void {
    if (this.#dropped > 0) {
      this.options.note(`energy: on-event: ${this.#dropped} event(s) dropped: the hook is slower than the events`);
      this.#dropped = 0;
    }
    while (this.#running.size < HOOKS_AT_ONCE && this.#waiting.length > 0) {
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
    const name = (event as { event?: unknown }).event;
    const fail = (why: string) => note(`energy: on-event: \`${printable(command, 200)}\` for ${String(name)} ${why}`);
    return new Promise<void>((resolve) => {
      let child: ChildProcess;
      const env = { ...(this.options.env ?? process.env) };
      for (const variable of SECRET_VARIABLES) delete env[variable];
      // Its own process group: a timeout stops the shell and what it started (curl, sendmail).
      const options: SpawnOptions = { stdio: ['pipe', 'pipe', 'pipe'], env, detached: true };
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
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        stop('SIGTERM');
        setTimeout(() => stop('SIGKILL'), 2000).unref();
      }, this.options.timeoutMs ?? HOOK_TIMEOUT_MS);
      const said = () => (output.trim() === '' ? '' : `: ${printable(output.trim(), 300)}`);
      child.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        fail(error.code === 'ENOENT' ? 'was not found' : `could not run (${error.code ?? error.message})`);
        resolve();
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (timedOut) fail(`was stopped after ${(this.options.timeoutMs ?? HOOK_TIMEOUT_MS) / 1000} s${said()}`);
        else if (signal !== null) fail(`was stopped by ${signal}${said()}`);
        else if (code !== 0) fail(`failed with exit status ${code}${said()}`);
        resolve();
      });
      // A hook that does not read its input must not fail the write.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(`${JSON.stringify(event)}\n`);
    });
  }
}
