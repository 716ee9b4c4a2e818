/** How `order create --dry-run` shows the request it would send: as an HTTP request, then the signed string. */
import type { RequestPreview } from '../client/transport.js';

export function previewLines(preview: RequestPreview): string {
  const headers = Object.entries(preview.headers).map(([name, value]) => `${name}: ${value}\n`);
  return [
    `${preview.method} ${preview.path}\n`,
    ...headers,
    '\n',
    `${preview.body}\n`,
    '\n',
    '# the canonical string the signature covers (timestamp, method, path, query, body SHA-256), one part a line:\n',
    `${preview.canonical}\n`,
  ].join('');
}
