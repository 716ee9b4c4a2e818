/**
 * How a run ends as a process (src/app/process-run.ts): once the run has settled, the process exits as soon as
 * its event loop is empty, through process.exit() (Node's teardown of the heap skipped), and never before: work
 * still under way when the run settles (a write, a child, a socket) finishes first, and the exit status is the
 * run's. A run whose loop empties before it settles is a bug, said as one. Each case is a real Node process
 * running the built module (tsc's output in dist/app) with a program made here.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STACK_FRAME } from '../helpers/e2e.js';

const processRun = new URL('../../dist/app/process-run.js', import.meta.url).href;

/** Runs `program` (the body of an async ProgramRun taking `terminal`) as a `--json` run of a Node process. */
function runAsProcess(program: string, nodeOptions: string[] = []) {
  const script = `
    import { runProcess } from ${JSON.stringify(processRun)};
    runProcess(process.argv.slice(1), async (args, terminal) => { ${program} });
  `;
  return spawnSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', script, '--', '--json'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
    cwd: fileURLToPath(new URL('.', import.meta.url)),
  });
}

describe('the end of a run as a process', () => {
  it('exits with the run’s status once the work left after the run is done, not before', () => {
    const result = runAsProcess(
      `setTimeout(() => terminal.stdout.write('written after the run settled\\n'), 100);
       return 3;`,
    );
    expect(result.stdout).toBe('written after the run settled\n');
    expect(result.status).toBe(3);
    expect(result.stderr).toBe('');
  });

  it('ends through process.exit() once idle, with the run’s status', () => {
    // --trace-exit: Node says each process.exit() on stderr, and says nothing of an end by an empty loop.
    const result = runAsProcess('setTimeout(() => {}, 50); return 5;', ['--trace-exit']);
    expect(result.status).toBe(5);
    expect(result.stderr).toContain('Exited the environment with code 5');
  });

  it('says a run whose event loop empties before it settles as an internal error, exit 1, without a trace', () => {
    const result = runAsProcess('await new Promise(() => {});');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the command stopped before finishing');
    expect(JSON.parse(result.stderr.trim())).toMatchObject({ error: { exit_code: 1 } });
    expect(result.stderr).not.toMatch(STACK_FRAME);
  });

  it('says a run that throws as an internal error, in one line', () => {
    const result = runAsProcess(`throw new Error('a bug');`);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { message: 'internal error: a bug' } });
  });
});
