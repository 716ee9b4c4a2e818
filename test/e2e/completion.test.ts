import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  const words = typed.map((w) => `'${w}'`).join(' ');
  const out = execFileSync(
    'bash',
    [
      '--norc',
      '--noprofile',
      '-c',
      `source "$1"; COMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; _energy_completion; printf '%s\\n' "\${COMPREPLY[@]}"`,
      'bash',
      bashScript,
    ],
    { env, encoding: 'utf8', cwd },
  );
  return out
    .split('\n')
    .filter((line) => line !== '')
    .sort();
}

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

  it('completes the values an option accepts', () => {
    expect(complete('energy', 'order', 'batch', '--format', '')).toEqual(['csv', 'ndjson']);
    expect(complete('energy', 'order', 'batch', '--format', 'n')).toEqual(['ndjson']);
  });

  it('completes `help` and the commands it explains', () => {
    expect(complete('energy', 'he')).toEqual(['help']);
    expect(complete('energy', 'help', 'or')).toEqual(['order']);
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
  });
});

describeWhere('zsh', hasCommand('zsh'), 'energy completion zsh', () => {
  it('registers the completion through bashcompinit', async () => {
    const script = join(home, 'energy.zsh');
    writeFileSync(script, (await runCli(['completion', 'zsh'], { env })).stdout);
    const out = execFileSync(
      'zsh',
      ['-f', '-c', `autoload -U compinit && compinit -u -D; source '${script}'; print -r -- $_comps[energy]`],
      { env, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('_bash_complete -F _energy_completion');
  });
});

describe('energy completion', () => {
  it.each(['zsh', 'fish'])('prints a %s script', async (shell) => {
    const result = await runCli(['completion', shell], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('energy completion --profiles');
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
