/**
 * Requests through an HTTP(S) proxy: an Agent whose connections are CONNECT tunnels, so the one node:http
 * transport (http.ts) sends exactly the same signed bytes with or without a proxy, and the proxy sees only
 * the host name and port. Loaded by http.ts only when proxy-env.ts chose a proxy; ~90 lines instead of
 * undici (~80-110 ms to load) or https-proxy-agent (with agent-base and debug): see docs/behaviour.md's choices.
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { NetworkError } from '../domain/errors.js';
import { formatDuration } from '../domain/duration.js';
import { HttpFailure, toHttpFailure } from './http-failure.js';
import { redactProxyUrl, type ProxyChoice } from './proxy-env.js';

export function tunnelAgent(target: URL, proxy: ProxyChoice, connectMs: number): http.Agent {
  const open = (host: string, port: number) =>
    openTunnel(proxy, `${host.includes(':') ? `[${host}]` : host}:${port}`, connectMs);
  if (target.protocol === 'https:') {
    return new (class extends https.Agent {
      override createConnection(
        options: https.RequestOptions,
        callback?: (error: Error | null, stream: Duplex) => void,
      ): undefined {
        const { host, port } = endpoint(options, 443);
        open(host, port).then(
          (socket) =>
            callback?.(
              null,
              tls.connect({ ...(options as tls.ConnectionOptions), socket, servername: options.servername ?? host }),
            ),
          (error: Error) => callback?.(error, undefined as never),
        );
        return undefined;
      }
    })({ keepAlive: true });
  }
  return new (class extends http.Agent {
    override createConnection(
      options: http.ClientRequestArgs,
      callback?: (error: Error | null, stream: Duplex) => void,
    ): undefined {
      const { host, port } = endpoint(options, 80);
      open(host, port).then(
        (socket) => callback?.(null, socket),
        (error: Error) => callback?.(error, undefined as never),
      );
      return undefined;
    }
  })({ keepAlive: true });
}

function endpoint(options: http.ClientRequestArgs, defaultPort: number): { host: string; port: number } {
  return { host: options.hostname ?? options.host ?? 'localhost', port: Number(options.port ?? defaultPort) };
}

/** Asks the proxy for a tunnel to `authority` (host:port) and resolves with the open socket. */
function openTunnel(proxy: ProxyChoice, authority: string, connectMs: number): Promise<Duplex> {
  const { url, variable } = proxy;
  const shown = redactProxyUrl(url);
  const headers: Record<string, string> = { host: authority };
  if (url.username !== '' || url.password !== '') {
    const userPass = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`;
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request({
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || (url.protocol === 'https:' ? 443 : 80),
      method: 'CONNECT',
      path: authority,
      headers,
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy();
      reject(
        new HttpFailure(
          `the proxy ${shown} did not open a tunnel within ${formatDuration(connectMs)}`,
          'CONNECT_TIMEOUT',
        ),
      );
    }, connectMs);
    request.once('connect', (response, socket, head) => {
      clearTimeout(timer);
      if (response.statusCode === 200) {
        if (head.length > 0) socket.unshift(head);
        resolve(socket);
        return;
      }
      socket.destroy();
      if (response.statusCode === 407) {
        const had = url.username !== '' ? 'refused the user name and password' : 'asks for a user name and password';
        reject(
          new NetworkError(`the proxy ${shown} (from ${variable}) ${had} (HTTP 407)`, {
            hint: `set them in ${variable}: http://user:password@host:port`,
          }),
        );
        return;
      }
      reject(
        new HttpFailure(
          `the proxy ${shown} refused the tunnel to ${authority} (HTTP ${response.statusCode ?? 0})`,
          'PROXY_REFUSED',
        ),
      );
    });
    request.once('error', (error) => {
      clearTimeout(timer);
      const failure = toHttpFailure(error);
      reject(
        new HttpFailure(`cannot reach the proxy ${shown} (from ${variable}): ${failure.message}`, failure.code, {
          cause: error,
        }),
      );
    });
    request.end();
  });
}
