/**
 * Fuzzing the DTO boundary: arbitrary JSON, and near-miss inputs that mix up arities (an array
 * where one object is declared, one object where an array is, nulls, missing keys, nested
 * arrays), against a matrix of DTO shapes. Every input either gives an instance that satisfies
 * the declared TypeScript shape or a concise `ModelRetry`; nothing else escapes.
 */
import fc from 'fast-check';
import { ModelRetry } from 'golem';
import { validateDto } from 'golem/decorators';
import { MAX_PROBLEMS } from '../../decorators/validation/error-messages';
import { SHAPES, conforms, type ClassSpec, type Spec } from './fixtures/shapes';

const RUNS = 200;
/** Longest line: a clipped path plus a clipped class-validator message. */
const MAX_LINE = 400;

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Values of the declared shape `spec` (optional keys may be left out by {@link record}). */
function valid(spec: Spec): fc.Arbitrary<unknown> {
  if (spec === 'string') return fc.string();
  if (spec === 'unknown') return anyJson;
  if ('optional' in spec) return fc.oneof(fc.constant(null), valid(spec.optional));
  if ('nullable' in spec) return fc.oneof(fc.constant(null), valid(spec.nullable));
  if ('object' in spec) return record(spec.object, valid);
  if ('map' in spec)
    return fc.dictionary(fc.string({ maxLength: 5 }), valid(spec.map), { maxKeys: 3 });
  return fc.array(valid('array' in spec ? spec.array : spec.set), { maxLength: 3 });
}

/** Mostly valid values for `spec`, else the arity mixed up (one for many, many for one), or any JSON. */
function near(spec: Spec): fc.Arbitrary<unknown> {
  const mixed: fc.Arbitrary<unknown>[] = [anyJson, fc.constant(null)];
  if (typeof spec === 'object' && !('optional' in spec) && !('nullable' in spec)) {
    const inner =
      'object' in spec
        ? undefined
        : 'array' in spec
          ? spec.array
          : 'set' in spec
            ? spec.set
            : spec.map;
    if (inner === undefined) mixed.push(fc.array(valid(spec), { maxLength: 2 }));
    else
      mixed.push(near(inner), fc.array(fc.array(near(inner), { maxLength: 2 }), { maxLength: 2 }));
    if ('object' in spec) mixed.push(record(spec.object, near));
    else if ('map' in spec)
      mixed.push(fc.dictionary(fc.string({ maxLength: 5 }), near(spec.map), { maxKeys: 3 }));
    else mixed.push(fc.array(near('array' in spec ? spec.array : spec.set), { maxLength: 3 }));
  } else if (spec === 'string') {
    mixed.push(fc.array(fc.string(), { maxLength: 2 }));
  }
  return fc.oneof({ weight: 3, arbitrary: valid(spec) }, ...mixed);
}

/** Objects with the class's keys (some left out), each value from `value`. */
function record(
  spec: ClassSpec,
  value: (spec: Spec) => fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(
    Object.entries(spec.fields).map(([key, field]) => [key, value(field)]),
  );
  return fc.oneof(fc.record(fields), fc.record(fields, { requiredKeys: [] }));
}

function check(spec: ClassSpec, value: unknown): void {
  let instance: object;
  try {
    instance = validateDto(spec.cls, value);
  } catch (error) {
    if (!ModelRetry.is(error)) throw error;
    const lines = error.reason.split('; ');
    expect(error.reason).not.toBe('');
    expect(error.reason).not.toMatch(/\n/);
    expect(lines.length).toBeLessThanOrEqual(MAX_PROBLEMS + 1);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX_LINE);
    return;
  }
  expect(conforms(instance, { object: spec })).toBe(true);
}

describe.each(SHAPES.map((spec) => [spec.cls.name, spec] as const))('%s', (_name, spec) => {
  test('arbitrary JSON gives a conforming instance or a concise ModelRetry', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        check(spec, value);
      }),
      { numRuns: RUNS },
    );
  });

  test('near-miss objects give a conforming instance or a concise ModelRetry', () => {
    fc.assert(
      fc.property(record(spec, near), (value) => {
        check(spec, value);
      }),
      { numRuns: RUNS },
    );
  });
});
