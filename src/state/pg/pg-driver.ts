/**
 * The driver (pg) and its URL parser (pg-connection-string), loaded by a run that opens the shared state store
 * and by nothing else. The build makes them one file (dist/bin/vendor/pg.cjs, scripts/bundle.mjs): pg carries
 * the parser anyway, and a second file cost each such run its own read, code cache and compile (~0.4 ms).
 * Whichever is asked for first loads that file, so both loads go through the stand-in below.
 */

/** The driver. */
export function loadDriver(): Promise<typeof import('pg')> {
  return withoutCloudflareProbe(() => import('pg'));
}

/** pg-connection-string's parse, as pg-settings.ts reads the URL with it. */
export function loadUrlParser(): Promise<typeof import('pg-connection-string')> {
  return withoutCloudflareProbe(() => import('pg-connection-string'));
}

/**
 * pg asks once, as it loads, whether it runs on Cloudflare Workers: where there is no `navigator` (Node 20)
 * by building a fetch Response, which loads Node's whole fetch implementation (undici), 15 to 35 ms of a run.
 * A stand-in `navigator` for that moment gives the same answer (not Cloudflare) at no cost; it is gone after.
 */
async function withoutCloudflareProbe<T>(load: () => Promise<T>): Promise<T> {
  if ('navigator' in globalThis) return load();
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Node.js' }, configurable: true });
  try {
    return await load();
  } finally {
    delete (globalThis as { navigator?: unknown }).navigator;
  }
}
