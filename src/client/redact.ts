/** A secret as `****d7`: the last two characters tell which one is stored, the rest stays hidden. */
export function maskSecret(value: string): string {
  return value.length < 12 ? '****' : `****${value.slice(-2)}`;
}

/** An API key as `sb…d7`: first and last two characters only. */
export function maskKey(value: string): string {
  return value.length < 8 ? '****' : `${value.slice(0, 2)}…${value.slice(-2)}`;
}

/** The Authorization header with the key masked and the signature replaced. */
export function redactAuthorization(header: string): string {
  const match = /^(\S+) ([^:]*):(.*)$/.exec(header);
  if (match === null) return '[REDACTED]';
  return `${match[1]} ${maskKey(match[2] ?? '')}:[REDACTED]`;
}

/** scrubSecrets over every string inside a JSON value (a server's error body), keys included. */
export function scrubSecretsDeep(value: unknown, secrets: readonly (string | undefined)[]): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubSecretsDeep(item, secrets));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [scrubSecrets(key, secrets), scrubSecretsDeep(item, secrets)]),
    );
  }
  return value;
}

/** Removes every occurrence of each secret from a text before it reaches a log or an error. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) result = result.split(secret).join('[REDACTED]');
  }
  return result;
}
