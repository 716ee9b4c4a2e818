/** The hints of a TRON node's refusal name the key's source, when the caller says where the key came from. */
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../src/client/http.js';
import { decodeTronFailure } from '../../../src/tron/tron-decode.js';

const answer = (status: number): HttpResponse => ({
  status,
  headers: {},
  text: '{"Error":"no"}',
  bytes: Buffer.from('{"Error":"no"}'),
});
const profile = { where: 'profile prod', fix: 'set it again: energy --profile prod config set tron-api-key' };

describe('decodeTronFailure hints', () => {
  it.each([
    [
      401,
      true,
      profile,
      'the node refused the API key from profile prod: set it again: energy --profile prod config set tron-api-key',
    ],
    [403, true, profile, 'the node refuses or limits the API key from profile prod: check the key'],
    [429, true, undefined, 'the node refuses or limits the API key: check the key'],
    [429, false, undefined, 'public nodes limit requests without a key'],
    [401, false, undefined, 'the node asks for an API key'],
  ] as const)('HTTP %i, key sent %s', (status, sent, source, hint) => {
    expect(decodeTronFailure(answer(status), 'TRON node x', sent, source).hint).toContain(hint);
  });
});
