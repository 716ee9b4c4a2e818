/**
 * `energy doctor`: every check, in the contract's order. The local ones come first (they decide whether
 * there is anything to reach); the network ones run at once. Exit 0 unless a check failed, else the first
 * failure's code.
 */
import { apiBaseUrl } from '../config/credentials.js';
import { SETTING_NAMES } from '../config/names.js';
import type { Settings } from '../config/settings.js';
import { ChecksFailedError } from '../domain/cli-errors.js';
import { failed, guarded, type CheckResult } from './check.js';
import { checkConfigFiles, checkJournal, checkProfile, checkStateFolder } from './local-checks.js';
import { checkApi, checkCredentials, checkTronNode, type ApiChecks, type Remote } from './remote-checks.js';
import type { StateStore } from '../state/state-store.js';
import { checkSharedJournal, checkStateStore } from './state-checks.js';

export interface DoctorInput extends Remote {
  configDir: string;
  configFile: string;
  stateDir: string;
  profileNames(): Promise<string[]>;
  /** Where each setting comes from, without reading a secret file or running a helper command. */
  sources(names: readonly string[]): Promise<Settings>;
  orderCommand(verb: string): string;
  /** The state store in effect (opened on first call): checked in place of the folder where state-url is set. */
  stateStore(): Promise<StateStore>;
}

export async function runDoctor(input: DoctorInput): Promise<CheckResult[]> {
  const names = await input.profileNames().catch((error: unknown) => error as Error);
  const config = await guarded('config', () => checkConfigFiles(input.configDir, input.configFile, names));
  let settings: Settings | undefined;
  let baseUrl: URL | undefined;
  const profile = await guarded('profile', async () => {
    settings = await input.sources(SETTING_NAMES);
    const result = checkProfile(settings);
    baseUrl = await apiBaseUrl(settings, input.profileNames);
    return result;
  });
  const unreachable = (name: string) =>
    failed(name, new Error('not checked: no usable profile'), 'fix the profile first');
  const apiChecks: Promise<ApiChecks> =
    baseUrl === undefined
      ? Promise.resolve({ checks: [unreachable('api')], skewSeconds: undefined })
      : checkApi(input, settings!, baseUrl);
  const [api, credentials, tronNode] = await Promise.all([
    apiChecks,
    baseUrl === undefined ? unreachable('credentials') : checkCredentials(input, settings!, baseUrl),
    settings === undefined || profile.status === 'fail'
      ? unreachable('tron-node')
      : checkTronNode(
          input,
          settings,
          apiChecks.then((checked) => checked.skewSeconds),
        ),
  ]);
  // The built-in TronGrid is needed only by address, estimate and ensure: out of reach, a warning.
  const node =
    tronNode.status === 'fail' && settings?.values['tron-node'].source === 'default'
      ? {
          ...tronNode,
          status: 'warn' as const,
          hint: `${tronNode.hint ?? ''} (needed only by address, estimate and ensure)`.trim(),
        }
      : tronNode;
  const shared = settings?.values['state-url'].value !== undefined;
  const state = await guarded('state', () =>
    shared ? checkStateStore(input.stateStore) : checkStateFolder(input.stateDir),
  );
  const journal =
    shared && state.status === 'fail'
      ? failed('journal', new Error('not checked: the state store cannot be used'), 'fix the state store first')
      : await guarded('journal', () =>
          shared
            ? checkSharedJournal(input.stateStore, input.orderCommand, input.stateDir)
            : checkJournal(input.stateDir, input.orderCommand),
        );
  return [config, profile, ...api.checks, credentials, node, state, journal];
}

/** The error that ends the run when a check failed: the first failure's exit code. */
export function outcome(checks: readonly CheckResult[]): ChecksFailedError | undefined {
  const failures = checks.filter((check) => check.status === 'fail');
  if (failures.length === 0) return undefined;
  const first = failures[0]!;
  const count = failures.length === 1 ? '1 check' : `${failures.length} checks`;
  return new ChecksFailedError(`doctor: ${count} failed, first ${first.name}`, first.exitCode ?? 2, {
    hint: first.hint ?? `see the ${first.name} line above`,
  });
}
