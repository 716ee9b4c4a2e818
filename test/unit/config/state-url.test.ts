import { describe, expect, it } from 'vitest';
import { hasPassword, readStateUrl, redactStateUrl } from '../../../src/config/state-url.js';
import { UsageError } from '../../../src/domain/errors.js';

describe('the state URL', () => {
  it.each([
    ['postgresql://energy:s3cret@db.internal:5432/energy', 'postgresql://energy:***@db.internal:5432/energy'],
    ['postgres://u:p%40ss@h/d?sslmode=require', 'postgres://u:***@h/d?sslmode=require'],
    ['postgresql://energy@/energy?host=/run/postgresql', 'postgresql://energy@/energy?host=/run/postgresql'],
    ['postgresql://u@h/d?password=hunter2&sslmode=disable', 'postgresql://u@h/d?password=***&sslmode=disable'],
    ['postgresql://u:a:b@c@h/d', 'postgresql://u:***@h/d'],
    ['not a url :pw@', 'not a url :pw@'],
  ])('%s is shown as %s', (url, shown) => {
    expect(redactStateUrl(url)).toBe(shown);
  });

  it('knows a URL that carries a password', () => {
    expect(hasPassword('postgresql://u:p@h/d')).toBe(true);
    expect(hasPassword('postgresql://u:p@/d?host=/tmp/x')).toBe(true);
    expect(hasPassword('postgresql://u@h/d?password=p')).toBe(true);
    expect(hasPassword('postgresql://u@/d?host=/tmp/x')).toBe(false);
  });

  it("takes postgresql:// and postgres://, libpq's socket form too, and refuses anything else without showing a password", () => {
    expect(readStateUrl('postgresql://u@/d?host=/tmp/x').url.protocol).toBe('postgresql:');
    expect(readStateUrl('postgres://h/d').url.protocol).toBe('postgres:');
    expect(() => readStateUrl('mysql://u:pw@h/d')).toThrow(UsageError);
    expect(() => readStateUrl('::nonsense:pw-9@x')).toThrow(/state-url is not a URL/);
    // Not a URL: not echoed at all, since no rule can find a password in it.
    expect(() => readStateUrl('http//u:pw-secret-7@h')).toThrow(
      /^state-url is not a URL \(not shown: it may hold a password\)$/,
    );
  });
});
