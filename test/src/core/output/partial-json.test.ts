import fc from 'fast-check';
import { parsePartialJson } from '../../../../src/core/output/partial-json';

/** Whether `partial` is a possible snapshot of `whole`: strings are prefixes, containers grow. */
function consistent(partial: unknown, whole: unknown): boolean {
  if (typeof whole === 'string') return typeof partial === 'string' && whole.startsWith(partial);
  if (Array.isArray(whole)) {
    if (!Array.isArray(partial) || partial.length > whole.length) return false;
    return partial.every((p: unknown, i) => consistent(p, whole[i]));
  }
  if (typeof whole === 'object' && whole !== null) {
    if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) return false;
    const entries = Object.entries(partial as Record<string, unknown>);
    return entries.every(
      ([k, v]) =>
        Object.prototype.hasOwnProperty.call(whole, k) &&
        consistent(v, (whole as Record<string, unknown>)[k]),
    );
  }
  return Object.is(partial, whole);
}

const jsonText = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, 2)),
);

describe('parsePartialJson', () => {
  test('every prefix of valid JSON parses to a value consistent with the whole and the next prefix', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const whole: unknown = JSON.parse(text);
        let previous: unknown = undefined;
        for (let end = 0; end <= text.length; end++) {
          const parsed = parsePartialJson(text.slice(0, end));
          if (parsed === undefined) continue;
          expect(consistent(parsed.value, whole)).toBe(true);
          if (previous !== undefined) expect(consistent(previous, parsed.value)).toBe(true);
          previous = parsed.value;
        }
      }),
      { numRuns: 300 },
    );
  });

  test('the whole text parses to what JSON.parse returns, marked complete', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const whole: unknown = JSON.parse(text);
        const parsed = parsePartialJson(text);
        if (typeof whole === 'number')
          expect(parsed).toBeUndefined(); // a bare number may go on
        else expect(parsed).toEqual({ value: whole, complete: true });
      }),
      { numRuns: 300 },
    );
  });

  test('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        expect(() => parsePartialJson(text)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });

  test('shows unfinished strings, but numbers and literals only once finished', () => {
    expect(parsePartialJson('{"city": "Lag')?.value).toEqual({ city: 'Lag' });
    expect(parsePartialJson('{"city": "Lagos", "celsius": 3')?.value).toEqual({ city: 'Lagos' });
    expect(parsePartialJson('{"city": "Lagos", "celsius": 31,')?.value).toEqual({
      city: 'Lagos',
      celsius: 31,
    });
    expect(parsePartialJson('{"ok": tr')?.value).toEqual({});
    expect(parsePartialJson('[1, 2, {"a": [nu')?.value).toEqual([1, 2, { a: [] }]);
    expect(parsePartialJson('{"ci')?.value).toEqual({});
    expect(parsePartialJson('{"city":')?.value).toEqual({});
  });

  test('an unfinished escape is left out until it completes', () => {
    expect(parsePartialJson('"a\\')?.value).toBe('a');
    expect(parsePartialJson('"a\\u00')?.value).toBe('a');
    expect(parsePartialJson('"a\\u00e9')?.value).toBe('aé');
    expect(parsePartialJson('"line\\n')?.value).toBe('line\n');
  });

  test('text that is not a JSON prefix yields nothing', () => {
    for (const text of [
      '{"a" 1',
      '[1 2]',
      '{"a": tx',
      '"tab\there"',
      '{} extra',
      '{,}',
      '[01]',
      'Sure! {',
    ])
      expect(parsePartialJson(text)).toBeUndefined();
  });

  test('a "__proto__" key is an own property, never the prototype', () => {
    const parsed = parsePartialJson('{"__proto__": {"polluted": true}, "b": 1');
    const value = parsed?.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('hostile nesting yields no value instead of overflowing the stack', () => {
    expect(parsePartialJson('['.repeat(100_000))).toBeUndefined();
  });
});
