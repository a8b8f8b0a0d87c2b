/**
 * The compiled fast path of flat DTOs is the full path, faster: over random flat DTOs and
 * random inputs (and the fixture matrices), `toValidInstance` (fast path first) and
 * `toValidInstanceFully` (guard, shape walk, class-transformer, class-validator) agree on
 * accept/reject, on the instance (class, own keys in order, values) and on the report the model
 * sees; every value the full path accepts as a plain object of primitives is decided by the
 * fast path alone; DTOs it cannot reproduce keep the full path.
 */
import fc from 'fast-check';

import { compileDto } from '../../decorators/schema/dto-schema';
import type { CompiledDto } from '../../decorators/schema/dto-schema';
import { flatPlanOf } from '../../decorators/validation/flat-plan';
import { compare, tally } from './fixtures/flat-compare';
import { declareDto, EXTRA_KEYS, FLAT_DTO, VALUES, type PropertySpec } from './fixtures/flat-dtos';
import * as matrix from './fixtures/matrix';
import * as shapes from './fixtures/shapes';
import { ConfigError } from '../../src/core/index';

/** Likely-valid values per kind, so a fair share of inputs is accepted. */
const GOOD: Record<PropertySpec['kind'], fc.Arbitrary<unknown>> = {
  string: fc.constantFrom('a', 'ab', 'AB', 'a@b.co'),
  number: fc.integer({ min: 1, max: 4 }),
  int: fc.integer({ min: 0, max: 3 }),
  boolean: fc.constant(true),
  enum: fc.constantFrom('red', 'blue'),
  date: fc.constant('2020-01-01'),
  unseen: fc.constantFrom('a', 1, true),
};

function inputs(specs: readonly PropertySpec[]): fc.Arbitrary<unknown> {
  const names = specs.map((spec) => spec.name);
  const good = fc.record(
    Object.fromEntries(specs.map((spec) => [spec.name, fc.oneof(GOOD[spec.kind], VALUES)])),
    { requiredKeys: [] },
  );
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names) },
    fc.constantFrom(...EXTRA_KEYS),
  );
  const entries = fc.array(fc.tuple(key, VALUES), { maxLength: 5 });
  return fc.oneof(
    { weight: 6, arbitrary: good },
    { weight: 3, arbitrary: entries.map((list) => Object.fromEntries(list)) },
    {
      weight: 1,
      arbitrary: good.map((record) => Object.assign(Object.create(null) as object, record)),
    },
    { weight: 1, arbitrary: fc.constantFrom(null, [], 'x', 3, new Date(0)) },
  );
}

describe('flat DTO fast path', () => {
  it('agrees with the full path on random flat DTOs and random inputs', () => {
    let declined = 0;
    fc.assert(
      fc.property(
        FLAT_DTO.chain((specs) =>
          fc.tuple(fc.constant(specs), fc.array(inputs(specs), { minLength: 10, maxLength: 25 })),
        ),
        ([specs, values]) => {
          const dto = declareDto(specs);
          let compiled: CompiledDto;
          try {
            compiled = compileDto(dto, 'the fast-path test');
          } catch (error) {
            if (!ConfigError.is(error, 'decorators')) throw error;
            declined++;
            return;
          }
          expect(flatPlanOf(compiled)).toBeDefined();
          for (const value of values) compare(compiled, value);
        },
      ),
      { numRuns: 150 },
    );
    expect(declined).toBeLessThan(15);
    expect(tally.accepted).toBeGreaterThan(tally.cases / 20);
    expect(tally.decidedFast).toBeGreaterThan(0);
  });
});

/** The fixture DTOs the fast path takes; the others are nested or have containers or `@Type`. */
const FLAT_FIXTURES = new Set<unknown>([
  matrix.Primitives,
  matrix.OptionalAndDefaults,
  matrix.Coordinates,
  matrix.Enums,
  matrix.Numbers,
  matrix.Strings,
  matrix.Reflected,
  matrix.BaseFields,
  matrix.Derived,
  shapes.Address,
  shapes.Name,
  shapes.Loose,
]);

const FIXTURES = [...Object.values(matrix), ...Object.values(shapes)].filter(
  (value): value is new () => object =>
    typeof value === 'function' && /^[A-Z]/.test(value.name) && 'prototype' in value,
);

/** Values fixture properties accept (and nearly accept), beside the generic ones. */
const FIXTURE_VALUES = fc.oneof(
  VALUES,
  fc.constantFrom('celsius', 'low', 'high', 'USD', 'abc', 'Lagos', 'ab', 5, 10, 45.5, -91),
  fc.jsonValue({ maxDepth: 2 }),
);

describe('flat DTO fast path on the fixture matrices', () => {
  it.each(FIXTURES.map((dto) => [dto.name, dto] as const))('%s: both paths agree', (_name, dto) => {
    const compiled = compileDto(dto, 'the fast-path test');
    expect(flatPlanOf(compiled) !== undefined).toBe(FLAT_FIXTURES.has(dto));
    const keys = [...compiled.closure.root.properties.keys(), 'extra'];
    const value = fc.dictionary(fc.constantFrom(...keys), FIXTURE_VALUES, { maxKeys: 6 });
    fc.assert(
      fc.property(value, (input) => {
        compare(compiled, input);
      }),
      { numRuns: 150 },
    );
  });
});
