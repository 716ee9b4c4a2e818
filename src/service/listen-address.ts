/**
 * `--metrics [host:]port`: where the service's status server listens; a port alone is loopback only.
 * Every interface is asked for by name (`0.0.0.0:9464`, `[::]:9464`), never by a bare `0`, which reads as
 * port 0 (any free port) in `--metrics 0` and as every interface in `0:9464`: that one is refused.
 */

export interface ListenAddress {
  host: string;
  port: number;
}

/** `9464` → 127.0.0.1:9464; `0.0.0.0:9464`, `localhost:9464`, `[::1]:9464`; undefined when it is not one. */
export function parseListenAddress(text: string): ListenAddress | undefined {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text.trim());
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port > 65_535) return undefined;
  const host = match[1] === undefined ? '127.0.0.1' : match[1].replace(/^\[(.*)\]$/, '$1');
  if (/^0+$/.test(host)) return undefined;
  return { host, port };
}

/** Whether the host is the wildcard: the server answers on every interface of the machine. */
export function everyInterface(host: string): boolean {
  return host === '0.0.0.0' || /^[0:]*::[0:]*$/.test(host);
}
