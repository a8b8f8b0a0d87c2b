import fc from 'fast-check';
import {
  JsonParseError,
  RawJson,
  compactJson,
  parseJsonWithRaw,
  type JsonPathSegment,
} from '../../../../src/core/kit/raw-json';

/** The JsonParseError `fn` throws (fails the test when it throws nothing or something else). */
function parseError(fn: () => unknown): JsonParseError {
  try {
    fn();
  } catch (error) {
    if (JsonParseError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a JsonParseError');
}

describe('parseJsonWithRaw', () => {
  test.each([
    ['-0', -0],
    ['1e5', 100000],
    ['1E-5', 0.00001],
    ['-12.5e+2', -1250],
    ['0', 0],
    ['true', true],
    ['null', null],
    [' [1, {"a": [false]}] ', [1, { a: [false] }]],
    ['"\\"\\\\\\/\\b\\f\\n\\r\\t"', '"\\/\b\f\n\r\t'],
    ['"\\u0041\\u00e9\\u20AC"', 'Aé€'],
    ['"\\ud83d\\ude00"', '😀'],
    ['"\\ud800"', '\ud800'],
    ['"😀 raw"', '😀 raw'],
    ['{"a":1,"a":2}', { a: 2 }],
  ])('%s parses like JSON.parse', (text, expected) => {
    expect(parseJsonWithRaw(text)).toStrictEqual(expected);
    expect(parseJsonWithRaw(text)).toStrictEqual(JSON.parse(text));
  });

  test.each([
    ['01', 'leading zeros are not allowed', 0],
    ['-01', 'leading zeros are not allowed', 0],
    ['1.', "unexpected end of input; expected a digit after '.'", 2],
    ['.5', "unexpected '.'; expected a JSON value", 0],
    ['NaN', "unexpected 'N'; expected a JSON value", 0],
    ['-', 'unexpected end of input; expected a digit', 1],
    ['1e', 'unexpected end of input; expected an exponent digit', 2],
    ['"abc', 'unterminated string', 0],
    ['"ab\\', 'unterminated string', 3],
    ['"a\nb"', 'unescaped control character U+000A in string', 2],
    ['"\\x"', 'invalid escape \\x', 1],
    ['"\\u12g4"', 'invalid \\u escape; expected four hex digits', 1],
    ['[1,]', "unexpected ']'; expected a JSON value", 3],
    ['{"a":1,}', "unexpected '}'; expected a string key", 7],
    ['{a:1}', "unexpected 'a'; expected a string key", 1],
    ['[1 2]', "unexpected '2'; expected ',' or ']'", 3],
    ['{"a" 1}', "unexpected '1'; expected ':'", 5],
    ['[1] [2]', "unexpected '[' after the JSON value", 4],
    ['\ufeff[]', 'unexpected U+FEFF; expected a JSON value', 0],
    ['', 'unexpected end of input; expected a JSON value', 0],
    ['tru', "unexpected 't'; expected a JSON value", 0],
    ['[\u00a0]', 'unexpected U+00A0; expected a JSON value', 1],
  ])('%j is rejected: %s', (text, reason, position) => {
    const error = parseError(() => parseJsonWithRaw(text));
    expect([error.reason, error.position]).toEqual([reason, position]);
    expect(() => {
      JSON.parse(text);
    }).toThrow();
  });

  test('errors carry the path of the value being parsed', () => {
    const error = parseError(() => parseJsonWithRaw('{"a":[0,{"b":tru}]}'));
    expect(error.path).toEqual(['a', 1, 'b']);
    expect(error.message).toBe("unexpected 't'; expected a JSON value at position 13");
  });

  test('values at chosen paths come back as compact raw text with spellings kept', () => {
    const seen: JsonPathSegment[][] = [];
    const rawAt = (path: readonly JsonPathSegment[]): boolean => {
      seen.push([...path]);
      return path.length === 2 && path[1] === 'args';
    };
    const result = parseJsonWithRaw(
      '[{"args": { "n" : 1.0, "s": "\\u0041  b" } , "x": 1E2}, {"args": -0}]',
      { rawAt },
    );
    expect(result).toStrictEqual([
      { args: new RawJson('{"n":1.0,"s":"\\u0041  b"}'), x: 100 },
      { args: new RawJson('-0') },
    ]);
    expect(seen).toEqual([[], [0], [0, 'args'], [0, 'x'], [1], [1, 'args']]);
  });

  test('raw values are still validated, including depth', () => {
    const rawAt = (path: readonly JsonPathSegment[]): boolean => path.length === 1;
    expect(parseError(() => parseJsonWithRaw('{"a":[1,}', { rawAt })).path).toEqual(['a', 1]);
    const deep = parseError(() =>
      parseJsonWithRaw(`{"a":${'['.repeat(10)}${']'.repeat(10)}}`, { rawAt, maxDepth: 5 }),
    );
    expect([deep.reason, deep.position]).toEqual([
      'nesting is deeper than the limit of 5 levels',
      9,
    ]);
  });

  test('__proto__ keys are refused in built objects, escaped spellings included, and inert in raw values', () => {
    expect(parseError(() => parseJsonWithRaw('{"__proto__":{"polluted":true}}')).reason).toBe(
      'object key "__proto__" is not allowed',
    );
    expect(parseError(() => parseJsonWithRaw('[{"\\u005f_proto__":1}]')).position).toBe(2);
    const raw = parseJsonWithRaw('{"args":{"__proto__":{"polluted":true}}}', {
      rawAt: (p) => p.length === 1,
    });
    expect(raw).toStrictEqual({ args: new RawJson('{"__proto__":{"polluted":true}}') });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a 10k-level nesting bomb fails at the depth limit without overflowing the stack', () => {
    const error = parseError(() => parseJsonWithRaw('['.repeat(10_000) + ']'.repeat(10_000)));
    expect([error.reason, error.position, error.path.length]).toEqual([
      'nesting is deeper than the limit of 256 levels',
      256,
      256,
    ]);
    expect(parseJsonWithRaw('['.repeat(256) + ']'.repeat(256))).toBeInstanceOf(Array);
  });

  test('length and depth limits are enforced and validated', () => {
    expect(parseError(() => parseJsonWithRaw('[1,2]', { maxLength: 4 })).reason).toBe(
      'JSON text is 5 characters; the limit is 4',
    );
    expect(() => parseJsonWithRaw('[]', { maxDepth: 5000 })).toThrow(RangeError);
  });

  test('parses every fast-check JSON text exactly like JSON.parse (texts with a __proto__ key excepted)', () => {
    fc.assert(
      fc.property(
        fc.json().filter((text) => !hasProtoKey(JSON.parse(text))),
        (text) => {
          expect(parseJsonWithRaw(text)).toStrictEqual(JSON.parse(text));
        },
      ),
    );
  });

  test('refuses a __proto__ key wherever it is, whatever its value', () => {
    fc.assert(
      fc.property(
        fc.json(),
        fc.constantFrom('{"__proto__":%}', '[{"a":{"__proto__":%}}]', '{"x":[1,{"__proto__":%}]}'),
        (value, shape) => {
          expect(parseError(() => parseJsonWithRaw(shape.replace('%', () => value))).reason).toBe(
            'object key "__proto__" is not allowed',
          );
        },
      ),
    );
  });
});

describe('compactJson', () => {
  test('removes whitespace outside strings only', () => {
    expect(compactJson(' {\n\t"a b" : [ 1.50 , "x\\"  y" ],\r\n "c": null } ')).toBe(
      '{"a b":[1.50,"x\\"  y"],"c":null}',
    );
    expect(compactJson('"already"')).toBe('"already"');
  });

  test('validates before compacting', () => {
    expect(parseError(() => compactJson('{"a": 01}')).reason).toBe('leading zeros are not allowed');
    expect(parseError(() => compactJson('{} {}')).position).toBe(3);
  });

  test('is idempotent and preserves the parsed value of arbitrary JSON re-indented', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const pretty = JSON.stringify(JSON.parse(text), null, 2);
        const compact = compactJson(pretty);
        expect(compact).toBe(JSON.stringify(JSON.parse(text)));
        expect(compactJson(compact)).toBe(compact);
      }),
    );
  });
});

/** Whether a parsed JSON value has an own `__proto__` key at any depth. */
function hasProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasProtoKey);
  return Object.keys(value).some(
    (key) => key === '__proto__' || hasProtoKey((value as Record<string, unknown>)[key]),
  );
}
