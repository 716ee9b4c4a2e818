/**
 * `order list --all --cursor C` reads every page from C on (how a listing stopped part-way is resumed), not
 * from the newest order: against a node:http server of 30 orders in pages, spawned for real, counting the
 * requests and the cursors asked for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/http-server.js';
import { pagingServer } from '../helpers/scripted-api.js';

let server: ScriptedServer;
let dir: string;
beforeAll(async () => {
  server = await startScriptedServer();
  dir = mkdtempSync(join(tmpdir(), 'energy-list-cursor-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  ...baseEnv(join(dir, 'config')),
  ENERGY_BASE_URL: server.url.href,
  ENERGY_API_KEY: 'ak_cursor',
  ENERGY_API_SECRET: 'sk-cursor-0123456789',
});
const cursorsAsked = () => server.seen.map((seen) => new URL(seen.url, 'http://x').searchParams.get('cursor'));

describe('order list --all --cursor', () => {
  it('from c20 in pages of 5: the orders o-20 to o-29, read from c20 on, and none before', async () => {
    server.script(pagingServer(30, 100));
    server.seen.length = 0;
    const result = await runCli(['order', 'list', '--all', '--cursor', 'c20', '--limit', '5', '--json'], {
      env: env(),
    });
    expect(result.code, result.stderr).toBe(0);
    const { items } = JSON.parse(result.stdout) as { items: { client_request_id: string }[] };
    const ids = items.map((order) => order.client_request_id);
    expect(ids).toEqual(['o-20', 'o-21', 'o-22', 'o-23', 'o-24', 'o-25', 'o-26', 'o-27', 'o-28', 'o-29']);
    expect(cursorsAsked()).toEqual(['c20', 'c25']);
  });

  it('without --cursor: from the newest, all 30', async () => {
    server.script(pagingServer(30, 100));
    server.seen.length = 0;
    const result = await runCli(['order', 'list', '--all', '--limit', '10', '--json'], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as { items: unknown[] }).items).toHaveLength(30);
    expect(cursorsAsked()).toEqual([null, 'c10', 'c20']);
  });
});
