/** `energy doctor`: checks the setup end to end. The checks are loaded only when it runs. */
import { Command } from 'commander';
import { scrubSecretsDeep } from '../client/redact.js';
import { credentialValues } from '../config/credentials.js';
import { configDir } from '../config/paths.js';
import type { Settings } from '../config/settings.js';
import { doctorTable, type ShownCheck } from '../output/doctor-views.js';
import type { CommandServices } from './command-services.js';
import type { Context } from './context.js';
import { serviceEnv } from './service-env.js';
import { createApiClient, createTronNode } from './services.js';

export interface DoctorCommandOptions extends Pick<
  CommandServices,
  'state' | 'terminal' | 'printer' | 'verbose' | 'invocation'
> {
  /** --timeout and --retries as given (a diagnosis has its own defaults). */
  timeout: number | undefined;
  retries: number | undefined;
  /** The secrets known so far, scrubbed from every line the checks say. */
  knownCredentials: () => string[];
  /** The config file, and the names of its profiles. */
  configFile: string;
  profileNames: () => Promise<string[]>;
  /** Where each setting comes from, without reading a secret file or running a helper command. */
  settingSources: (names: readonly string[]) => Promise<Settings>;
}

export function doctorCommand(
  ctx: Context,
  run: (options: DoctorCommandOptions) => Promise<void> = doctorRun,
): Command {
  return new Command('doctor')
    .description('check the config, profile, API, clock, credentials, TRON node and state folder, and say what to fix')
    .action(() =>
      run({
        timeout: ctx.globals.timeout,
        retries: ctx.globals.retries,
        knownCredentials: () => ctx.knownCredentials(),
        configFile: ctx.store.path,
        profileNames: () => ctx.store.profileNames(),
        settingSources: (names) => ctx.settingSources(names as Parameters<Context['settingSources']>[0]),
        ...ctx.services(),
      }),
    );
}

export async function doctorRun(opts: DoctorCommandOptions): Promise<void> {
  const { printer, terminal } = opts;
  const [{ runDoctor, outcome }, { stateDir }] = await Promise.all([
    import('../diagnose/run-doctor.js'),
    import('../journal/state-dir.js'),
  ]);
  const secrets: (string | undefined)[] = [...opts.knownCredentials()];
  // A diagnosis answers quickly: one attempt and 10 s per request unless --retries / --timeout say otherwise.
  const given = { verbose: opts.verbose, timeout: opts.timeout ?? 10, retries: opts.retries ?? 0 };
  const run = serviceEnv(terminal, printer, given, () => secrets);
  const { env } = terminal;
  const checks = await runDoctor({
    env,
    signal: terminal.interrupt,
    configDir: configDir(env),
    configFile: opts.configFile,
    stateDir: stateDir(env),
    profileNames: opts.profileNames,
    sources: opts.settingSources,
    orderCommand: (verb) => opts.invocation('order', verb),
    stateStore: opts.state,
    apiClient: (settings, baseUrl) => createApiClient(run, settings, baseUrl, false),
    tronNode: (settings) => createTronNode(run, settings),
    remember: (settings) => secrets.push(...credentialValues(settings)),
  });
  const shown = scrubSecretsDeep(
    checks.map(({ name, status, detail, hint }) => ({ name, status, detail, hint })),
    secrets,
  ) as ShownCheck[];
  await (printer.jsonMode ? printer.json({ checks: shown }) : printer.table(doctorTable(shown)));
  const failure = outcome(checks);
  if (failure !== undefined) throw failure;
}
