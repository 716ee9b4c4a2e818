/**
 * Builds the query string once, with its leading `?`, so that the bytes sent and the bytes signed are the
 * same string. Values are percent-encoded as RFC 3986 unreserved characters; undefined values are left out.
 */
export function encodeQuery(params: Readonly<Record<string, string | number | undefined>>): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    pairs.push(`${encodeRfc3986(name)}=${encodeRfc3986(String(value))}`);
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

function encodeRfc3986(text: string): string {
  // encodeURIComponent leaves !'()* alone; RFC 3986 reserves them, so encode them too.
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
