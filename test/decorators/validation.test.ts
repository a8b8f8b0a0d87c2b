/**
 * Validation at the boundary: strict class-validator options, no coercion, whitelisting that
 * reports every undeclared key, null meaning "omitted" for optional fields, and concise
 * `path: message` reasons for the model.
 */
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { ModelRetry } from 'golem';
import { INPUT_LIMITS, Nullable, Describe, validateDto } from 'golem/decorators';
import { MAX_PROBLEMS } from '../../decorators/validation/error-messages';
import { Coordinates, Nested } from './fixtures/matrix';

class ForecastArgs {
  @Describe('City name, for example "Lagos"') @IsString() city!: string;
  @Describe('Days ahead, 0 = today') @IsInt() @Min(0) @Max(7) @IsOptional() days?: number;
}

class WithDefault {
  @IsString() city!: string;
  @IsOptional() @IsInt() days = 3;
}

class Note {
  @Nullable() @IsString() text!: string | null;
  @IsOptional() @Nullable() @IsString() extra?: string | null;
}

class Wrapper {
  @ValidateNested() @Type(() => ForecastArgs) inner!: ForecastArgs;
}

function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (ModelRetry.is(error)) return error.reason;
    throw error;
  }
  throw new Error('expected a ModelRetry');
}

describe('validateDto', () => {
  test('returns an instance of the DTO, nested DTOs included', () => {
    const value = validateDto(Nested, {
      at: { lat: 1, lon: 2 },
      route: [{ lat: 3, lon: 4 }],
    });
    expect(value).toBeInstanceOf(Nested);
    expect(value.at).toBeInstanceOf(Coordinates);
    expect(value.route[0]).toBeInstanceOf(Coordinates);
  });

  test('lists every problem as path: message, joined by "; "', () => {
    expect(reasonOf(() => validateDto(ForecastArgs, { city: 5, days: 9 }))).toBe(
      'city: must be a string; days: must not be greater than 7',
    );
  });

  test('does not coerce: "3" is not an integer', () => {
    expect(reasonOf(() => validateDto(ForecastArgs, { city: 'Lagos', days: '3' }))).toBe(
      'days: must be an integer number',
    );
  });

  test('names nested and array paths', () => {
    expect(
      reasonOf(() =>
        validateDto(Nested, { at: { lat: 100, lon: 0 }, route: [{ lat: 0, lon: 0 }, { lat: 0 }] }),
      ),
    ).toBe(
      'at.lat: must not be greater than 90; route[1].lon: must be a number conforming to the specified constraints',
    );
  });

  test('a nested value that is not an object must be an object', () => {
    expect(reasonOf(() => validateDto(Wrapper, { inner: 'Lagos' }))).toBe(
      'inner: expected an object, got a string',
    );
  });

  test('reports undeclared properties at any depth', () => {
    expect(
      reasonOf(() => validateDto(Wrapper, { inner: { city: 'Lagos', unit: 'c' }, extra: 1 })),
    ).toBe('inner.unit: is not an allowed property; extra: is not an allowed property');
  });

  test('reports keys named like Object.prototype members instead of dropping them', () => {
    expect(
      reasonOf(() => validateDto(ForecastArgs, { city: 'Lagos', toString: 1, valueOf: 2 })),
    ).toBe('toString: is not an allowed property; valueOf: is not an allowed property');
  });

  test('a key cannot forge the "; " between problems: its ";" is escaped', () => {
    const reason = reasonOf(() => validateDto(ForecastArgs, { city: 'Lagos', 'a; b': 1 }));
    expect(reason).toBe('["a\\u003b b"]: is not an allowed property');
    expect(reason.split('; ')).toHaveLength(1);
  });

  test('a missing required property is reported', () => {
    expect(reasonOf(() => validateDto(ForecastArgs, {}))).toBe('city: must be a string');
  });

  test('null for an optional property means omitted', () => {
    const value = validateDto(ForecastArgs, { city: 'Lagos', days: null });
    expect(value).toEqual(Object.assign(new ForecastArgs(), { city: 'Lagos' }));
    expect('days' in value).toBe(false);
  });

  test('null for a required property is rejected', () => {
    expect(reasonOf(() => validateDto(ForecastArgs, { city: null }))).toBe(
      'city: must be a string',
    );
  });

  test('null for a nullable property is kept, optional or not', () => {
    const value = validateDto(Note, { text: null, extra: null });
    expect(value.text).toBeNull();
    expect(value.extra).toBeNull();
  });

  test('an omitted property with an initial value gets it', () => {
    expect(validateDto(WithDefault, { city: 'Lagos' }).days).toBe(3);
  });

  test('does not modify the input', () => {
    const input = { city: 'Lagos', days: null };
    validateDto(ForecastArgs, input);
    expect(input).toEqual({ city: 'Lagos', days: null });
  });

  test.each([
    ['null', null, 'null'],
    ['a number', 42, 'a number'],
    ['a string', '[]', 'a string'],
    ['an array', [], 'an array'],
    ['a boolean', true, 'a boolean'],
  ])('rejects %s: only a JSON object is accepted', (_label, value, kind) => {
    expect(reasonOf(() => validateDto(ForecastArgs, value))).toBe(
      `expected the value as a JSON object, got ${kind}`,
    );
  });

  test('rejects prototype-polluting keys at any depth', () => {
    const parsed: unknown = JSON.parse('{"inner":{"city":"x","__proto__":{"isAdmin":true}}}');
    expect(reasonOf(() => validateDto(Wrapper, parsed))).toBe('the key "__proto__" is not allowed');
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  test('rejects nesting deeper than the limit without recursing', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = { city: deep };
    expect(reasonOf(() => validateDto(ForecastArgs, deep))).toBe(
      `nesting deeper than ${INPUT_LIMITS.maxDepth} levels is not allowed`,
    );
  });

  test('rejects more text than the limit', () => {
    expect(
      reasonOf(() => validateDto(ForecastArgs, { city: 'x'.repeat(INPUT_LIMITS.maxChars + 1) })),
    ).toBe(`too much text (more than ${INPUT_LIMITS.maxChars} characters)`);
  });

  test('rejects more values than the limit', () => {
    const many = Array.from({ length: INPUT_LIMITS.maxNodes }, () => 0);
    expect(reasonOf(() => validateDto(ForecastArgs, { city: 'x', many }))).toBe(
      `too many values (more than ${INPUT_LIMITS.maxNodes})`,
    );
  });

  test('rejects values that are not JSON data', () => {
    expect(reasonOf(() => validateDto(ForecastArgs, { city: () => 'x' }))).toBe(
      'only JSON data is allowed',
    );
    expect(reasonOf(() => validateDto(ForecastArgs, { city: new Date() }))).toBe(
      'only JSON data is allowed',
    );
  });

  test(`lists at most ${MAX_PROBLEMS} problems and counts the rest`, () => {
    const extras = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`x${i}`, i]));
    const reason = reasonOf(() => validateDto(ForecastArgs, { city: 'x', ...extras }));
    expect(reason.split('; ')).toHaveLength(MAX_PROBLEMS + 1);
    expect(reason.endsWith('; and 2 more')).toBe(true);
  });
});
