/** credentialProblem: the characters a key and the secret may hold, and the message for the first that is not. */
import { describe, expect, it } from 'vitest';
import { credentialProblem } from '../../../src/config/names.js';

describe('credentialProblem', () => {
  it('takes printable ASCII, and a space in the secret alone', () => {
    expect(credentialProblem('api-key', 'sbx_1f4ed1bb517c3911~!')).toBeUndefined();
    expect(credentialProblem('api-secret', 'a b~c')).toBeUndefined();
    expect(credentialProblem('tron-api-key', '0123-abcd')).toBeUndefined();
  });

  it.each([
    ['api-key', 'ab cd', 'api-key contains a space (character 3 of 5)'],
    ['api-secret', 'abc\n', 'api-secret contains a line break (character 4 of 4)'],
    ['api-secret', 'a\u007fb', 'api-secret contains a control character (character 2 of 3)'],
    ['api-secret', '\u0000', 'api-secret contains a control character (character 1 of 1)'],
    ['tron-api-key', 'k\u00e9y', 'tron-api-key contains a character that is not ASCII (character 2 of 3)'],
    // Counted in characters, not UTF-16 units: the emoji is one.
    ['api-key', '\u{1F600}x\u00a0', 'api-key contains a character that is not ASCII (character 1 of 3)'],
  ] as const)('refuses %s %j', (name, value, message) => {
    expect(credentialProblem(name, value)).toBe(`${message}, which cannot be sent in a request`);
  });
});
