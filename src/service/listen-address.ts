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

/**
 * Whether the address a socket got (its `address()`, in the system's own spelling) is the wildcard: the
 * server answers on every interface of the machine. Decided from what the socket got, never from what was
 * asked: `0.0`, `0x0`, `0.0.0`, `000.000.000.000` or a name that resolves to 0.0.0.0 all bind 0.0.0.0.
 */
export function everyInterface(bound: string): boolean {
  return bound === '0.0.0.0' || bound === '::' || bound === '::ffff:0.0.0.0';
}
