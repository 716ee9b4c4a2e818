/**
 * What the proxy tests need, all on 127.0.0.1: a test certificate authority and a certificate for
 * api.energy.test (made with openssl), a TLS front that turns the sandbox into an HTTPS server, and a
 * CONNECT proxy that alone resolves *.energy.test (to 127.0.0.1) and can demand credentials (407).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';

export const TEST_HOST = 'api.energy.test';

export interface TestCertificates {
  /** PEM file of the test CA: NODE_EXTRA_CA_CERTS for the spawned CLI. */
  caFile: string;
  key: Buffer;
  cert: Buffer;
  remove(): void;
}

/** A CA and a leaf certificate for api.energy.test, valid for two days (EC keys: quick to make). */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'energy-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=energy test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl('req', ...ec, '-keyout', at('leaf.key'), '-out', at('leaf.csr'), '-subj', `/CN=${TEST_HOST}`);
  // 127.0.0.1 too: the same certificate serves the HTTPS proxy.
  writeFileSync(
    at('leaf.ext'),
    `subjectAltName=DNS:${TEST_HOST},IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`,
  );
  openssl(
    'x509',
    '-req',
    '-in',
    at('leaf.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('leaf.pem'),
    '-days',
    '2',
    '-extfile',
    at('leaf.ext'),
  );
  return {
    caFile: at('ca.pem'),
    key: readFileSync(at('leaf.key')),
    cert: readFileSync(at('leaf.pem')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Listening {
  port: number;
  close(): Promise<void>;
}

function listen(server: Server, sockets: Set<Socket>): Promise<Listening> {
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

/** Terminates TLS for api.energy.test and passes the bytes on to the plain-HTTP sandbox at `upstreamPort`. */
export function startTlsFront(certs: TestCertificates, upstreamPort: number): Promise<Listening> {
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key: certs.key, cert: certs.cert }, (socket) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  return listen(server, sockets);
}

export interface TestProxy extends Listening {
  /** The CONNECT targets asked for, in order, with the Proxy-Authorization header each carried. */
  tunnels: { target: string; authorization: string | undefined }[];
}

/**
 * A CONNECT proxy; with `credentials` ("user:password") set, any other request gets 407. With `tls`, the
 * proxy itself speaks HTTPS (an https:// proxy URL).
 */
export async function startConnectProxy(credentials?: string, tls?: TestCertificates): Promise<TestProxy> {
  const tunnels: TestProxy['tunnels'] = [];
  const sockets = new Set<Socket>();
  const refuse = (_req: unknown, res: { writeHead(status: number): { end(): void } }) => res.writeHead(405).end();
  const server =
    tls === undefined ? createHttpServer(refuse) : createHttpsServer({ key: tls.key, cert: tls.cert }, refuse);
  server.on('connect', (req, client: Socket, head: Buffer) => {
    const authorization = req.headers['proxy-authorization'];
    tunnels.push({ target: req.url ?? '', authorization });
    client.on('error', () => undefined);
    if (credentials !== undefined && authorization !== `Basic ${Buffer.from(credentials).toString('base64')}`) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const match = /^([^:]+):(\d+)$/.exec(req.url ?? '');
    // Only this proxy knows the test host name: it stands for 127.0.0.1.
    if (match === null || match[1] !== TEST_HOST) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = connect(Number(match[2]), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    upstream.on('error', () => client.destroy());
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
  });
  const listening = await listen(server as unknown as Server, sockets);
  return { ...listening, tunnels };
}
