/** `energy doctor`: checks the setup end to end. The checks are loaded only when it runs. */
import { Command } from 'commander';
import { scrubSecrets, scrubSecretsDeep } from '../client/redact.js';
import { credentialValues } from '../config/credentials.js';
import { configDir } from '../config/paths.js';
import type { Context } from './context.js';
import { createApiClient, createTronNode, type ServiceEnv } from './services.js';

export function doctorCommand(ctx: Context): Command {
  return new Command('doctor')
    .description('check the config, profile, API, clock, credentials, TRON node and state folder, and say what to fix')
    .action(async () => {
      const [{ runDoctor, outcome }, { stateDir }] = await Promise.all([
        import('../diagnose/run-doctor.js'),
        import('../journal/state-dir.js'),
      ]);
      const secrets: (string | undefined)[] = [...ctx.knownCredentials()];
      const { verbose, timeout, retries } = ctx.globals;
      // A diagnosis answers quickly: one attempt and 10 s per request unless --retries / --timeout say otherwise.
      const run: ServiceEnv = {
        terminal: ctx.terminal,
        verbose: verbose === true,
        timeout: timeout ?? 10,
        retries: retries ?? 0,
        say: (line) => ctx.printer.note(scrubSecrets(line, secrets)),
        trace: (line) => ctx.printer.verbose(scrubSecrets(line, secrets)),
      };
      const { env } = ctx.terminal;
      const checks = await runDoctor({
        env,
        signal: ctx.terminal.interrupt,
        configDir: configDir(env),
        configFile: ctx.store.path,
        stateDir: stateDir(env),
        profileNames: () => ctx.store.profileNames(),
        sources: (names) => ctx.settingSources(names as Parameters<Context['settingSources']>[0]),
        orderCommand: (verb) => ctx.invocation('order', verb),
        stateStore: () => ctx.state(),
        apiClient: (settings, baseUrl) => createApiClient(run, settings, baseUrl, false),
        tronNode: (settings) => createTronNode(run, settings),
        remember: (settings) => secrets.push(...credentialValues(settings)),
      });
      const shown = scrubSecretsDeep(
        checks.map(({ name, status, detail, hint }) => ({ name, status, detail, hint })),
        secrets,
      ) as { name: string; status: string; detail: string; hint: string | null }[];
      if (ctx.printer.jsonMode) await ctx.printer.json({ checks: shown });
      else
        await ctx.printer.table({
          // Never cut: a check's detail and hint are what the user acts on; a long one wraps on words.
          columns: [
            { head: 'CHECK', width: 11 },
            { head: 'STATUS', width: 6 },
            { head: 'DETAIL', width: 0, wrap: 1 },
          ],
          rows: shown.flatMap(({ name, status, detail, hint }) => [
            [name, status, detail],
            ...(hint === null ? [] : [['', '', `→ ${hint}`]]),
          ]),
        });
      const failure = outcome(checks);
      if (failure !== undefined) throw failure;
    });
}
