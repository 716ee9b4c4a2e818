import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hostName } from '../../../src/state/pg/host-name.js';

describe('hostName', () => {
  it('is what os.hostname() says (gethostname), read without node:os on Linux', () => {
    expect(hostName()).toBe(hostname());
    expect(hostName()).not.toBe('');
  });
});
