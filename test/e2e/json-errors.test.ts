/** With --json every error is one object of one shape; the server's body sits inside it, scrubbed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/http-server.js';
import { ADDRESS, createWorld, type World } from '../helpers/world.js';

interface JsonError {
  error: { exit_code: number; message: string; hint: string | null; problem: Record<string, unknown> | null };
}

let world: World;
let server: ScriptedServer;
beforeAll(async () => {
  world = await createWorld();
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  await world.close();
});

function parse(stderr: string): JsonError {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  const body = JSON.parse(lines[0]!) as JsonError;
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error)).toEqual(['exit_code', 'message', 'hint', 'problem']);
  return body;
}

describe('--json errors', () => {
  it('keeps our exit code and hint beside the server body, with every credential scrubbed from it', async () => {
    const key = world.env.ENERGY_API_KEY!;
    const secret = world.env.ENERGY_API_SECRET!;
    server.script((request, response) => {
      if (request.url === '/v1/time') {
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ unix_time: Math.floor(Date.now() / 1000) }));
        return;
      }
      const problem = {
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: `unknown key ${key} (secret ${secret})`,
        code: 'AUTH_KEY',
        errors: [{ code: 'KEY', field: null, message: `key ${key}` }],
      };
      response.writeHead(401, { 'content-type': 'application/problem+json' }).end(JSON.stringify(problem));
    });
    const result = await runInProcess(['--json', 'balance'], { ...world.env, ENERGY_BASE_URL: server.url.origin });
    expect(result.code).toBe(3);
    expect(result.stderr).not.toContain(key);
    expect(result.stderr).not.toContain(secret);
    const { error } = parse(result.stderr);
    expect(error.exit_code).toBe(3);
    expect(error.message).toBe('GET /v1/balance failed: AUTH_KEY: unknown key [REDACTED] (secret [REDACTED])');
    expect(error.hint).toMatch(/check the API key and secret/);
    expect(error.problem).toEqual({
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: 'unknown key [REDACTED] (secret [REDACTED])',
      code: 'AUTH_KEY',
      errors: [{ code: 'KEY', field: null, message: 'key [REDACTED]' }],
    });
  });

  it('has the same shape, problem null, for an error found locally', async () => {
    const result = await runInProcess(['quote', ADDRESS, '--energy', '0', '--hours', '1', '--json'], world.env);
    expect(result.code).toBe(2);
    const { error } = parse(result.stderr);
    expect(error).toMatchObject({ exit_code: 2, problem: null });
    expect(error.message).toMatch(/--energy/);
  });

  it('has the same shape for a refusal before the options are read (an unknown command with help)', async () => {
    const result = await runInProcess(['--json', 'nosuch', '--help'], world.env);
    expect(result.code).toBe(2);
    expect(parse(result.stderr).error).toEqual({
      exit_code: 2,
      message: "unknown command 'nosuch'",
      hint: 'see `energy --help`',
      problem: null,
    });
  });
});
