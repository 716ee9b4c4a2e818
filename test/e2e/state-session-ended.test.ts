/**
 * A session the server ends between two statements of a run (a restart, a fail-over, pg_terminate_backend,
 * an idle timeout): the driver emits 'error' on the session, which the run still holds (checked out of the
 * pool, where the pool's own listener is off). Without a listener of ours that event would crash the process;
 * with it, the next statement fails with the reason, exit 11. The server is a node:net one on 127.0.0.1 that
 * speaks just enough of PostgreSQL's protocol: it lets the session in, answers its first statement (an empty
 * result) and closes the connection at once, every time.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectNoStackTrace } from '../helpers/e2e.js';
import { worldForSuite } from '../helpers/suite-world.js';

const world = worldForSuite();
let server: Server;
let url: string;

/** One backend message: its type, then its length (itself included) and body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0);
  head.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

beforeAll(async () => {
  server = createServer((socket) => {
    socket.on('error', () => undefined);
    let started = false;
    socket.on('data', () => {
      if (!started) {
        started = true;
        // AuthenticationOk, then ReadyForQuery (idle).
        socket.write(Buffer.concat([message('R', Buffer.from([0, 0, 0, 0])), message('Z', Buffer.from('I'))]));
        return;
      }
      // CommandComplete, ReadyForQuery (idle), then the end of the connection.
      socket.end(Buffer.concat([message('C', Buffer.from('SELECT 0\0')), message('Z', Buffer.from('I'))]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  url = `postgresql://energy@127.0.0.1:${port}/energy?sslmode=disable`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('a session ended by the server between statements: exit 11 with the reason, no crash', async () => {
  for (const args of [
    ['state', 'status'],
    ['order', 'pending'],
  ]) {
    const result = await world.run(args, { env: { ENERGY_STATE_URL: url, PGPASSWORD: 'unused' } });
    expectNoStackTrace(result);
    expect(result.code, result.stderr).toBe(11);
    expect(result.stderr).toContain('the state store postgresql://energy@127.0.0.1:');
  }
}, 30_000);
