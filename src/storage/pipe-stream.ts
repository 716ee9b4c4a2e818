/**
 * A pipe named by a path (`order batch <(grep … payouts.csv)`, which bash passes as /dev/fd/63, or a FIFO),
 * read as a stream, as standard input is. Opened with O_NONBLOCK: a FIFO with no writer yet would block
 * open() in libuv's thread pool, beyond the reach of signals (storage/bounded-read.ts says why). Read through
 * libuv's pipe handle (a net.Socket on the descriptor, as process.stdin reads a pipe), it waits for its
 * writer in the event loop, as `cat` would, and Ctrl-C or SIGTERM ends the wait.
 */
import { constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

export function pipeStream(path: string): Readable {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  return new Socket({ fd, readable: true, writable: false });
}
