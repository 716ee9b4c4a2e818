/**
 * A password file that gives no password because it is missing or cannot be read is said as such, not as
 * "no line for host:port:db:user". The database is a node:net server on 127.0.0.1 that asks for a cleartext
 * password at once (PostgreSQL's AuthenticationCleartextPassword), which is when energy reads the file. The
 * unreadable case is the container's: a 0600 file of root's, read by uid 1000 (through setpriv, as root).
 */
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { describeWhere, hasCommand } from '../helpers/machine-needs.js';
import { tempDirForSuite, worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();
const dir = tempDirForSuite('energy-pgpass-');
const asRoot = process.getuid?.() === 0;
let server: Server;
let url: string;

/** A PostgreSQL ErrorResponse ('E'): FATAL, `code`, `message`. */
function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0C${code}\0M${message}\0\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeUInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

beforeAll(async () => {
  server = createServer((socket) => {
    socket.on('error', () => undefined);
    let asked = false;
    socket.on('data', (data) => {
      if (!asked) {
        asked = true;
        // 'R', length 8, 3: the server asks for a password in clear text.
        socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]));
        return;
      }
      // The PasswordMessage ('p', length, the password, NUL): refused, repeating it, as a careless server or
      // proxy might.
      const password = data.subarray(5, data.indexOf(0, 5)).toString('utf8');
      socket.end(errorResponse('28P01', `password authentication failed: "${password}" is not it`));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  url = `postgresql://energy@127.0.0.1:${port}/energy?sslmode=disable`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The exit-11 message's password-file part, from a `state status --json` run. */
function messageOf(stderr: string): string {
  const last = JSON.parse(stderr.trim().split('\n').at(-1)!) as { error: { message: string } };
  return last.error.message;
}

describe('a password the server repeats in its message', () => {
  it('from PGPASSWORD or the password file: scrubbed from what energy says (exit 11)', async () => {
    const password = 'Pw-from-the-environment-7731';
    const fromFile = 'Pw-from-the-file-5520';
    const file = join(dir.path, 'pgpass-good');
    writeFileSync(file, `127.0.0.1:*:energy:energy:${fromFile}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    for (const env of [{ PGPASSWORD: password }, { PGPASSWORD: undefined, PGPASSFILE: file }]) {
      const result = await world.run(['state', 'status', '--json'], { env: { ENERGY_STATE_URL: url, ...env } });
      expect(result.code, result.stderr).toBe(11);
      expect(messageOf(result.stderr)).toContain('password authentication failed: "***" is not it');
      expect(result.stdout + result.stderr).not.toContain(password);
      expect(result.stdout + result.stderr).not.toContain(fromFile);
    }
  }, 30_000);
});

describe('the password file, when it gives no password', () => {
  it('missing: "does not exist", exit 11, nothing else claimed about it', async () => {
    const file = join(dir.path, 'no-such-pgpass');
    const result = await world.run(['state', 'status', '--json'], {
      env: { ENERGY_STATE_URL: url, PGPASSFILE: file, PGPASSWORD: undefined },
    });
    expect(result.code, result.stderr).toBe(11);
    expect(messageOf(result.stderr)).toContain(`the password file ${file} does not exist`);
    expect(result.stderr).not.toContain('no line for');
  }, 30_000);
});

describeWhere(
  'root and setpriv',
  asRoot && hasCommand('setpriv', ['--version']),
  'the password file unreadable by the user energy runs as',
  () => {
    it("root's 0600 file read by uid 1000: its owner, mode and this process's uid, exit 11", async () => {
      const home = join(dir.path, 'home-1000');
      mkdirSync(home, { mode: 0o700 });
      chownSync(home, 1000, 1000);
      chmodSync(dir.path, 0o755);
      const file = join(dir.path, 'pgpass');
      writeFileSync(file, `127.0.0.1:*:energy:energy:the-password\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
      const result = await world.run(['state', 'status', '--json'], {
        launch: ['setpriv', '--reuid=1000', '--regid=1000', '--clear-groups', '--', process.execPath, BIN],
        env: {
          HOME: home,
          ENERGY_CONFIG_DIR: join(home, 'config'),
          ENERGY_STATE_DIR: join(home, 'state'),
          ENERGY_STATE_URL: url,
          PGPASSFILE: file,
          PGPASSWORD: undefined,
        },
      });
      expect(result.code, result.stderr).toBe(11);
      expect(messageOf(result.stderr)).toContain(
        `the password file ${file} cannot be read (permission denied: owner uid 0, group gid 0, mode 0600; this process runs as uid 1000)`,
      );
      expect(result.stderr).not.toContain('the-password');
    }, 30_000);
  },
);
