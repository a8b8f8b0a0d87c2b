/**
 * `parseUntrustedJson` skips its depth scan and its key walk when the text cannot need them
 * (issue 21); these pin that the limits still hold at their edges, whichever way a key is spelled.
 */
import { parseUntrustedJson } from '../../../../src/core/kit/safe-json';
import { UnsafeJsonError } from '../../../support/internal-errors';

describe('forbidden keys', () => {
  test.each([
    ['plain __proto__', '{"__proto__":{"x":1}}', '__proto__'],
    ['constructor', '{"a":[{"constructor":1}]}', 'constructor'],
    ['prototype, nested', '{"a":{"b":{"prototype":null}}}', 'prototype'],
    ['__proto__ spelled with \\u escapes', '{"\\u005f_proto__":{}}', '__proto__'],
    ['constructor with one escaped letter', '{"constr\\u0075ctor":1}', 'constructor'],
    [
      'prototype fully escaped',
      '{"\\u0070\\u0072\\u006f\\u0074\\u006f\\u0074\\u0079\\u0070\\u0065":1}',
      'prototype',
    ],
  ])('%s is refused', (_name, text, key) => {
    expect(() => parseUntrustedJson(text)).toThrow(UnsafeJsonError);
    expect(() => parseUntrustedJson(text)).toThrow(`JSON object key "${key}" is not allowed`);
  });

  test('the words as values, or escapes of other keys, are accepted', () => {
    expect(parseUntrustedJson('{"a":"__proto__ and constructor"}')).toEqual({
      a: '__proto__ and constructor',
    });
    expect(parseUntrustedJson('{"\\u0061":1}')).toEqual({ a: 1 });
    expect(parseUntrustedJson('{"a":1,"b":[2,3]}')).toEqual({ a: 1, b: [2, 3] });
  });
});

describe('nesting depth', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  test('exactly the limit is accepted, one more is refused', () => {
    expect(() => parseUntrustedJson(nested(4), { maxDepth: 4 })).not.toThrow();
    expect(() => parseUntrustedJson(nested(5), { maxDepth: 4 })).toThrow(
      'JSON nesting depth 5 exceeds the limit of 4',
    );
  });

  test('a text no longer than the limit passes, however it nests', () => {
    expect(parseUntrustedJson('[[1]]', { maxDepth: 5 })).toEqual([[1]]);
    expect(() => parseUntrustedJson(nested(257))).toThrow(UnsafeJsonError);
  });
});
