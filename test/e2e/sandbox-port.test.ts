/** `energy sandbox` on a port it cannot have: exit 2 with one line, nothing saved, never "a bug". */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../helpers/cli.js';

const root = mkdtempSync(join(tmpdir(), 'energy-sandbox-port-'));
let busy: Server;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => busy.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe('energy sandbox --port', () => {
  it('says a busy port is in use, exit 2, and saves no profile', async () => {
    const { port } = busy.address() as AddressInfo;
    const env = baseEnv(join(root, 'busy'));
    const result = await runCli(['sandbox', '--port', String(port)], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `energy: error: cannot listen on 127.0.0.1:${port}: the port is in use (another sandbox?)\nhint: choose another with --port <n>, or --port 0 for any free port\n`,
    );
    expect(existsSync(join(root, 'busy', 'config.json'))).toBe(false);
  });

  it.each([
    ['99999', /--port.*too large: a port is at most 65535/],
    ['-1', /--port/],
    ['http', /--port.*port number from 0 to 65535/],
  ])('refuses --port %s with exit 2 and one line', async (port, reason) => {
    const result = await runCli(['sandbox', '--port', port], { env: baseEnv(join(root, 'bad')) });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(reason);
    expect(result.stderr).not.toMatch(/internal error|a bug/);
  });
});
