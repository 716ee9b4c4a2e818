import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, baseEnv, runCli } from '../helpers/cli.js';
import { describeWhere, hasCommand } from '../helpers/machine-needs.js';

let home: string;
let configDir: string;
let env: Record<string, string>;
let bashScript: string;

/** What bash completes for the words typed so far (the last one being completed), as compgen answers. */
function complete(...typed: string[]): string[] {
  return completeIn(home, ...typed);
}

/** The same, with bash's working folder at `cwd` (file names complete relative to it). */
function completeIn(cwd: string, ...typed: string[]): string[] {
  return completeWith(bashScript, env, cwd, ...typed);
}

function completeWith(script: string, shellEnv: Record<string, string>, cwd: string, ...typed: string[]): string[] {
  const words = typed.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `source "$1"; COMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; _energy_completion; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'bash',
      script,
    ],
    { env: shellEnv, encoding: 'utf8', cwd },
  );
  return out
    .split('\n')
    .filter((line) => line !== '')
    .sort();
}

/** Where `command` is on this PATH. */
const which = (command: string) => execFileSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'energy-completion-'));
  configDir = join(home, 'config');
  mkdirSync(configDir, { mode: 0o700 });
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({ profiles: { prod: { 'api-key': 'k' }, staging: {}, default: {} } }),
    { mode: 0o600 },
  );
  // `energy` on PATH, as the scripts call it for profile names.
  const binDir = join(home, 'bin');
  mkdirSync(binDir);
  writeFileSync(join(binDir, 'energy'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(binDir, 'energy'), 0o755);
  env = { ...baseEnv(configDir), PATH: `${binDir}:${process.env.PATH ?? ''}` };
  const result = await runCli(['completion', 'bash'], { env });
  expect(result.code).toBe(0);
  bashScript = join(home, 'energy.bash');
  writeFileSync(bashScript, result.stdout);
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('energy completion bash, sourced in bash', () => {
  it('completes `energy or<TAB>` to the commands starting with "or"', () => {
    expect(complete('energy', 'or')).toEqual(['order']);
    expect(complete('energy', 'o')).toEqual(['options', 'order']);
    expect(complete('energy', 'a')).toEqual(['address', 'api']);
  });

  it('completes `energy --profile <TAB>` with the profiles of the config file', () => {
    expect(complete('energy', '--profile', '')).toEqual(['default', 'prod', 'staging']);
    expect(complete('energy', '--profile', 'st')).toEqual(['staging']);
  });

  it('follows the command path past options and their values', () => {
    expect(complete('energy', '--profile', 'prod', 'order', 'l')).toEqual(['list']);
    // A value that happens to be a command name is still a value.
    expect(complete('energy', '--profile', 'config', 'ba')).toEqual(['balance']);
    expect(complete('energy', 'order', 'list', '--l')).toEqual(['--limit']);
    expect(complete('energy', 'config', 'set', '')).toEqual(
      expect.arrayContaining(['api-key', 'api-secret', 'base-url']),
    );
    expect(complete('energy', 'config', 'set', 'api-')).toEqual(['api-key', 'api-secret', 'api-secret-command']);
    expect(complete('energy', 'quote', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '--e')).toEqual(['--energy']);
    expect(complete('energy', 'balance', '--j')).toEqual(['--json']);
    expect(complete('energy', 'order', 'list', '--limit', '')).toEqual([]);
  });

  it('completes file names where a command takes a file, and only there', () => {
    const folder = mkdtempSync(join(home, 'files-'));
    writeFileSync(join(folder, 'payouts.csv'), 'address,energy,hours\n');
    writeFileSync(join(folder, 'payouts.ndjson'), '');
    mkdirSync(join(folder, 'payroll'));
    expect(completeIn(folder, 'energy', 'order', 'batch', 'pay')).toEqual(['payouts.csv', 'payouts.ndjson', 'payroll']);
    expect(completeIn(folder, 'energy', 'order', 'batch', '--format', 'csv', 'payouts.c')).toEqual(['payouts.csv']);
    // Options still complete after `order batch`; other commands offer no file names.
    expect(completeIn(folder, 'energy', 'order', 'batch', '--co')).toEqual(['--concurrency']);
    expect(completeIn(folder, 'energy', 'balance', 'pay')).toEqual([]);
  });

  it('offers a file name with a space as one word', () => {
    const folder = mkdtempSync(join(home, 'spaced-'));
    writeFileSync(join(folder, 'my batch.csv'), 'address,energy,hours\n');
    writeFileSync(join(folder, 'my other batch.ndjson'), '');
    expect(completeIn(folder, 'energy', 'order', 'batch', 'my')).toEqual(['my batch.csv', 'my other batch.ndjson']);
    expect(completeIn(folder, 'energy', 'api', 'POST', '/v1/energy/quotes', '--input', 'my b')).toEqual([
      'my batch.csv',
    ]);
  });

  it('offers `energy api` the methods, then the paths, never local files', () => {
    const folder = mkdtempSync(join(home, 'api-'));
    writeFileSync(join(folder, 'GET-notes.txt'), '');
    mkdirSync(join(folder, 'v1'));
    expect(completeIn(folder, 'energy', 'api', '')).toEqual(['GET', 'POST']);
    expect(completeIn(folder, 'energy', 'api', 'G')).toEqual(['GET']);
    // Only the paths that take the method typed (in any case): quotes are POST only, time GET only.
    const getPaths = ['/v1/balance', '/v1/energy/options', '/v1/energy/orders', '/v1/time'];
    expect(completeIn(folder, 'energy', 'api', 'GET', '')).toEqual(getPaths);
    expect(completeIn(folder, 'energy', 'api', 'get', '')).toEqual(getPaths);
    expect(completeIn(folder, 'energy', 'api', 'POST', '')).toEqual(['/v1/energy/orders', '/v1/energy/quotes']);
    expect(completeIn(folder, 'energy', 'api', 'PUT', '')).toEqual([]);
    // Options and their values are not positional arguments, before or after the method.
    expect(completeIn(folder, 'energy', 'api', '-f', 'limit=5', 'GET', '/v1/energy/o')).toEqual([
      '/v1/energy/options',
      '/v1/energy/orders',
    ]);
    expect(completeIn(folder, 'energy', '--profile', 'prod', 'api', 'POST', '--input', 'x', '/v1/t')).toEqual([]);
    expect(completeIn(folder, 'energy', '--profile', 'prod', 'api', 'POST', '--input', 'x', '/v1/energy/q')).toEqual([
      '/v1/energy/quotes',
    ]);
    expect(completeIn(folder, 'energy', 'api', 'GET', '/v1/time', '')).not.toContain('GET-notes.txt');
    expect(completeIn(folder, 'energy', 'api', 'GET', '--in')).toEqual(['--input']);
  });

  it('completes the profile names with the program that made the script, when no `energy` is on PATH', async () => {
    // Only bash and node (which bin/energy.js starts with) on PATH: no `energy`, even on a machine that has one.
    const bare = join(home, 'bare-bin');
    mkdirSync(bare);
    for (const tool of ['bash', 'node'])
      symlinkSync(tool === 'node' ? process.execPath : which('bash'), join(bare, tool));
    const noEnergy = { ...baseEnv(configDir), PATH: bare };
    const script = join(home, 'invoked.bash');
    writeFileSync(script, (await runCli(['completion', 'bash'], { env: noEnergy })).stdout);
    expect(completeWith(script, noEnergy, home, 'energy', '--profile', '')).toEqual(['default', 'prod', 'staging']);
    expect(completeWith(script, noEnergy, home, 'energy', 'config', 'delete-profile', 'p')).toEqual(['prod']);
    // Once that file is gone (a checkout moved, an npx cache cleared), the `energy` on PATH answers.
    const moved = join(home, 'moved.bash');
    writeFileSync(moved, readFileSync(script, 'utf8').replaceAll(BIN, join(home, 'gone', 'energy.js')));
    expect(completeWith(moved, noEnergy, home, 'energy', '--profile', '')).toEqual([]);
    expect(completeWith(moved, env, home, 'energy', '--profile', '')).toEqual(['default', 'prod', 'staging']);
  });

  it('completes the values an option accepts', () => {
    expect(complete('energy', 'order', 'batch', '--format', '')).toEqual(['csv', 'ndjson']);
    expect(complete('energy', 'order', 'batch', '--format', 'n')).toEqual(['ndjson']);
    // `--output json` is --json for every command: the commands with --output offer it beside their own.
    expect(complete('energy', 'order', 'list', '--output', '')).toEqual(['csv', 'json', 'table']);
    expect(complete('energy', 'spend', '--output', 'j')).toEqual(['json']);
  });

  it('completes file names for `ensure --on-event`, the command a service runs', () => {
    const folder = mkdtempSync(join(home, 'hooks-'));
    writeFileSync(join(folder, 'alert.sh'), '#!/bin/sh\n');
    writeFileSync(join(folder, 'alarm.py'), '');
    expect(completeIn(folder, 'energy', 'ensure', 'T', '--on-event', 'al')).toEqual(['alarm.py', 'alert.sh']);
    expect(completeIn(folder, 'energy', 'ensure', '--on-event', 'alert.sh', '--ev')).toEqual(['--every']);
  });

  it('completes `help` and the commands it explains', () => {
    expect(complete('energy', 'he')).toEqual(['help']);
    expect(complete('energy', 'help', 'or')).toEqual(['order']);
    expect(complete('energy', 'help', 'e')).toEqual(['ensure', 'environment', 'estimate', 'exit-codes']);
  });
});

/** fish answers `complete -C '<command line>'` like a TAB would; not every machine has fish (or zsh). */
describeWhere('fish', hasCommand('fish'), 'energy completion fish, sourced in fish', () => {
  it('completes commands, subcommands, profiles and setting names', async () => {
    const script = join(home, 'energy.fish');
    writeFileSync(script, (await runCli(['completion', 'fish'], { env })).stdout);
    const fish = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source '${script}'; complete -C '${line}'`], {
        env,
        encoding: 'utf8',
      })
        .split('\n')
        .map((l) => l.split('\t')[0])
        .filter((l) => l !== '')
        .sort();
    expect(fish('energy or')).toEqual(['order']);
    expect(fish('energy --profile ')).toEqual(['default', 'prod', 'staging']);
    expect(fish('energy order l')).toEqual(['list']);
    expect(fish('energy config set api-')).toEqual(['api-key', 'api-secret', 'api-secret-command']);
    expect(fish('energy order batch --format ')).toEqual(['csv', 'ndjson']);
    expect(fish('energy he')).toEqual(['help']);
    expect(fish('energy api ')).toEqual(['GET', 'POST']);
    expect(fish('energy api -f limit=5 GET /v1/energy/o')).toEqual(['/v1/energy/options', '/v1/energy/orders']);
    expect(fish('energy config delete-profile st')).toEqual(['staging']);
    expect(fish('energy api GET /v1/')).toEqual(['/v1/balance', '/v1/energy/options', '/v1/energy/orders', '/v1/time']);
    expect(fish('energy api post /v1/')).toEqual(['/v1/energy/orders', '/v1/energy/quotes']);
    expect(fish('energy order list --output ')).toEqual(['csv', 'json', 'table']);
    const folder = mkdtempSync(join(home, 'fish-hooks-'));
    writeFileSync(join(folder, 'alert.sh'), '');
    expect(fish(`energy ensure --on-event ${folder}/al`)).toEqual([`${folder}/alert.sh`]);
  });
});

describeWhere('zsh', hasCommand('zsh'), 'energy completion zsh', () => {
  const script = () => join(home, 'energy.zsh');
  beforeAll(async () => writeFileSync(script(), (await runCli(['completion', 'zsh'], { env })).stdout));

  it('registers the completion through bashcompinit', () => {
    const out = execFileSync(
      'zsh',
      ['-f', '-c', `autoload -U compinit && compinit -u -D; source '${script()}'; print -r -- $_comps[energy]`],
      { env, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('_bash_complete -F _energy_completion');
  });

  /**
   * What zsh's `_bash_complete` collects, one match a line, from bashcompinit's `compgen -F` (the words, the
   * cursor and zsh's PREFIX set as a TAB would set them); it then adds each line as one match.
   */
  function zshComplete(cwd: string, ...typed: string[]): string[] {
    const words = typed.map((w) => `'${w}'`).join(' ');
    const last = `'${typed.at(-1)!}'`;
    const out = execFileSync(
      'zsh',
      [
        '-f',
        '-c',
        `autoload -U compinit && compinit -u -D; source '${script()}'; ` +
          `COMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; words=(${words}); CURRENT=${typed.length}; ` +
          `PREFIX=${last}; compgen -F _energy_completion -- ${last}`,
      ],
      { env, encoding: 'utf8', cwd },
    );
    return out
      .split('\n')
      .filter((line) => line !== '')
      .sort();
  }

  it('offers a file name with a space as one word, and `energy api` its methods and paths', () => {
    const folder = mkdtempSync(join(home, 'zsh-'));
    writeFileSync(join(folder, 'my batch.csv'), '');
    writeFileSync(join(folder, 'my other batch.ndjson'), '');
    expect(zshComplete(folder, 'energy', 'order', 'batch', 'my')).toEqual(['my batch.csv', 'my other batch.ndjson']);
    // zsh filters the words by what is typed itself; what matters is that no file name is among them.
    expect(zshComplete(folder, 'energy', 'api', '')).toEqual(['GET', 'POST']);
    expect(zshComplete(folder, 'energy', 'api', 'GET', '')).toContain('/v1/energy/orders');
    expect(zshComplete(folder, 'energy', 'api', 'GET', '')).not.toContain('my batch.csv');
    expect(zshComplete(folder, 'energy', 'api', 'GET', '')).not.toContain('/v1/energy/quotes');
  });

  it('adds the / after a folder, as bash does with its filenames option', () => {
    const folder = mkdtempSync(join(home, 'zsh-folders-'));
    mkdirSync(join(folder, 'payroll'));
    writeFileSync(join(folder, 'payouts.csv'), '');
    expect(zshComplete(folder, 'energy', 'order', 'batch', 'pay')).toEqual(['payouts.csv', 'payroll/']);
    expect(zshComplete(folder, 'energy', 'ensure', '--on-event', 'pay')).toEqual(['payouts.csv', 'payroll/']);
  });
});

describeWhere(
  'shellcheck',
  hasCommand('shellcheck', ['--version']),
  'the bash and zsh scripts under shellcheck',
  () => {
    it.each(['bash', 'zsh'])('finds nothing in the %s script (SC2207: no COMPREPLY=($(…)))', async (shell) => {
      const script = join(home, `checked.${shell}`);
      writeFileSync(script, (await runCli(['completion', shell], { env })).stdout);
      // zsh runs the bash function through bashcompinit: bash's rules are the ones that apply.
      const checked = spawnSync('shellcheck', ['--shell=bash', script], { encoding: 'utf8' });
      expect(checked.stdout).toBe('');
      expect(checked.status).toBe(0);
    });
  },
);

describe('energy completion', () => {
  it.each(['zsh', 'fish'])('prints a %s script', async (shell) => {
    const result = await runCli(['completion', shell], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('completion --profiles');
    expect(result.stdout).toMatch(/complete .*energy/);
  });

  it('says how to install it in its help', async () => {
    const result = await runCli(['completion', '--help'], { env });
    expect(result.stdout).toContain('energy completion bash > ~/.local/share/bash-completion/completions/energy');
  });

  it('completes no profile, and fails nothing, when the config file is missing or corrupt', async () => {
    expect(
      (await runCli(['completion', '--profiles'], { env: { ...env, ENERGY_CONFIG_DIR: join(home, 'none') } })).stdout,
    ).toBe('');
    const corrupt = join(home, 'corrupt');
    mkdirSync(corrupt, { mode: 0o700 });
    writeFileSync(join(corrupt, 'config.json'), '{"profiles":', { mode: 0o600 });
    const result = await runCli(['completion', '--profiles'], { env: { ...env, ENERGY_CONFIG_DIR: corrupt } });
    expect(result).toMatchObject({ code: 0, stdout: '' });
  });

  it('refuses a shell it does not know with exit 2', async () => {
    const result = await runCli(['completion', 'powershell'], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });
});
