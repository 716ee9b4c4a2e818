/**
 * Secrets kept outside the config file: a file named by ENERGY_API_SECRET_FILE (Docker and Kubernetes
 * secrets, systemd LoadCredential) or a helper command in the profile (`api-secret-command`: pass,
 * secret-tool, op). Read only when a command is about to sign, never printed: a failure names the file or
 * the command and what went wrong, not what it printed (the output may be a part of the secret).
 */
import { AuthError } from '../domain/errors.js';
import { BoundedReadError } from '../domain/cli-errors.js';
import { printable } from '../domain/printable.js';
import { commandWords, needsShell } from '../domain/shell-syntax.js';
import { COMMAND_SECRETS, type CommandSecretName, type SettingName } from './names.js';
import type { SecretOrigin, Settings } from './settings.js';

/** Where a secret comes from, in words: for `config list`, `doctor` and error messages. */
export function describeOrigin(origin: SecretOrigin): string {
  return origin.kind === 'file'
    ? `file ${printable(origin.path, 200)}`
    : `command \`${printable(origin.command, 200)}\``;
}

/** `settings` with the secrets among `names` that come from a file or a command read in. */
export async function loadSecrets(
  settings: Settings,
  names: readonly SettingName[],
  signal?: AbortSignal,
): Promise<Settings> {
  const wanted = (Object.keys(COMMAND_SECRETS) as CommandSecretName[]).filter(
    (name) => names.includes(name) && settings.values[name].origin !== undefined && !settings.values[name].value,
  );
  if (wanted.length === 0) return settings;
  const values = { ...settings.values };
  for (const name of wanted) {
    const setting = values[name];
    values[name] = { ...setting, value: await readSecret(name, setting.origin!, signal) };
  }
  return { ...settings, values };
}

async function readSecret(name: CommandSecretName, origin: SecretOrigin, signal?: AbortSignal): Promise<string> {
  return origin.kind === 'file' ? readSecretFile(name, origin.path) : runSecretCommand(name, origin.command, signal);
}

/** One trailing line break is the file's or the command's, not the secret's (`echo secret > file`). */
function withoutFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/** Far above any API secret: a larger file is not one (and is not read into memory). */
const MAX_SECRET_FILE_BYTES = 65_536;

/**
 * The secret file: a regular file (a Docker or Kubernetes secret, systemd's credential), opened so that a
 * named pipe with no writer cannot hang the run (see storage/bounded-read.ts): a pipe or a device is
 * refused, pointing at api-secret-command, which is how a secret comes from a program.
 */
async function readSecretFile(name: CommandSecretName, path: string): Promise<string> {
  const variable = COMMAND_SECRETS[name].fileVariable;
  const { readRegularFile } = await import('../storage/bounded-read.js');
  let text: string;
  try {
    text = (await readRegularFile(path, MAX_SECRET_FILE_BYTES)).toString('utf8');
  } catch (error) {
    if (!(error instanceof BoundedReadError)) throw error;
    const regular = /not a regular file/.test(error.message);
    throw new AuthError(
      `cannot read ${name} from ${describeOrigin({ kind: 'file', path })} (${variable}): ${error.message}`,
      {
        hint: regular
          ? `${variable} must name a regular file; for a secret that a program prints, use: energy config set ${COMMAND_SECRETS[name].command} '…'`
          : `check that ${variable} names a file this user can read`,
      },
    );
  }
  const secret = withoutFinalNewline(text);
  if (secret === '') throw new AuthError(`${describeOrigin({ kind: 'file', path })} (${variable}) is empty`);
  return secret;
}

async function runSecretCommand(name: CommandSecretName, command: string, signal?: AbortSignal): Promise<string> {
  const { spawn } = await import('node:child_process');
  const commandName = COMMAND_SECRETS[name].command;
  // `api-secret-command \`pass show …\``: the setting's name already says it is a command.
  const shown = `\`${printable(command, 200)}\``;
  const fail = (what: string) =>
    new AuthError(`${commandName} ${shown} ${what}`, {
      hint: `run it yourself to see why (energy never shows what it printed), or change it: energy config set ${commandName} …`,
    });
  const shell = needsShell(command);
  const words = commandWords(command);
  return new Promise<string>((resolve, reject) => {
    // stdin closed: a batch may be reading ours. stderr passed through: a manager's prompt or message shows.
    const child = shell
      ? spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'inherit'], signal })
      : spawn(words[0]!, words.slice(1), { stdio: ['ignore', 'pipe', 'inherit'], signal });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(fail(error.code === 'ENOENT' ? 'was not found' : `could not run (${error.code ?? 'error'})`));
    });
    child.on('close', (code, killedBy) => {
      if (killedBy !== null) return reject(fail(`was stopped by ${killedBy}`));
      if (code !== 0) return reject(fail(`failed with exit status ${code}`));
      const secret = withoutFinalNewline(Buffer.concat(chunks).toString('utf8'));
      if (secret === '') return reject(fail('printed nothing'));
      resolve(secret);
    });
  });
}
