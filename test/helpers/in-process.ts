/** Runs the CLI's run() in this process with captured streams: fast enough for table-driven sweeps. */
import { PassThrough, Readable } from 'node:stream';
import { run } from '../../src/app/main.js';
import type { CliResult } from './cli.js';

export async function runInProcess(args: readonly string[], env: Record<string, string>): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const code = await run(args, { stdout, stderr, stdin: Readable.from([]), env });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}
