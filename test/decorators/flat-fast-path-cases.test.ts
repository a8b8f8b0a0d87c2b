/**
 * The flat fast path on hand-picked corners (nulls, defaults, functions set by the constructor,
 * a constructor that adds keys, limits, odd inputs), on the DTOs it must leave to the full path,
 * and on how often it runs a DTO's constructor.
 */
import { Exclude, Transform, Type } from 'class-transformer';
import {
  Allow,
  getMetadataStorage,
  IsBoolean,
  IsDefined,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Min,
  MinLength,
  registerDecorator,
  Validate,
  ValidateIf,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { ModelRetry } from 'golem';
import { Nullable } from 'golem/decorators';
import { compileDto } from '../../decorators/schema/dto-schema';
import { flatPlanOf } from '../../decorators/validation/flat-plan';
import { INPUT_LIMITS } from '../../decorators/validation/input-guard';
import { toValidInstance, toValidInstanceFully } from '../../decorators/validation/validate-dto';
import { compare } from './fixtures/flat-compare';

let made = 0;

/** Hand-picked corners: each class with the inputs that reach it. */
class Loose {
  @Allow() anything!: unknown;
  @IsDefined() @Allow() present!: unknown;
}
class Required {
  @Allow() label!: string;
}
class NullRules {
  @IsOptional() @IsString() omitted?: string;
  @Nullable() @IsString() cleared!: string | null;
  @IsOptional() @Nullable() @IsString() both?: string | null;
}
class Defaults {
  @IsString() first!: string;
  @IsOptional() @IsInt() @Min(1) days = 3;
  @IsInt() @Min(5) invalid = 1;
}
class FunctionField {
  @Allow() helper: unknown = () => 1;
  @IsString() name!: string;
}
/** Its third and later instances carry a key without validators (the builder makes two). */
class Drifting {
  @IsString() name!: string;
  constructor() {
    made++;
    if (made > 2) (this as Record<string, unknown>).sneaky = 1;
  }
}

const CORNERS: Array<[new () => object, unknown[]]> = [
  [Loose, [{ anything: null, present: 1 }, { anything: 1, present: null }, { present: 'x' }, {}]],
  [Required, [{}, { label: null }, { label: 'x' }, { label: 3 }]],
  [
    NullRules,
    [
      { omitted: null, cleared: null },
      { cleared: null, both: null },
      { omitted: 'a', cleared: 'b', both: 'c' },
      { omitted: 1, cleared: null },
      { cleared: 'x', omitted: undefined },
    ],
  ],
  [Defaults, [{ first: 'a' }, { first: 'a', invalid: 9 }, { invalid: 9, first: 'a', days: 0 }]],
  [FunctionField, [{ name: 'a' }, { name: 'a', helper: 'x' }, { helper: 2 }]],
  [Drifting, [{ name: 'a' }, { name: 1 }]],
  [
    Required,
    [
      { label: 'x'.repeat(INPUT_LIMITS.maxChars + 1) },
      { label: -0 },
      Object.assign(Object.create(null) as object, { label: 'x' }),
      { label: Number.NaN },
    ],
  ],
];

describe('flat DTO fast path, corners', () => {
  it.each(CORNERS.map(([dto, values]) => [dto.name, dto, values] as const))(
    '%s: the same outcome on both paths',
    (_name, dto, values) => {
      const compiled = compileDto(dto, 'the fast-path test');
      expect(flatPlanOf(compiled)).toBeDefined();
      for (const value of values) compare(compiled, value);
    },
  );
});

@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
}

function IsShort(): PropertyDecorator {
  return (target, property) => {
    registerDecorator({
      name: 'isShort',
      target: target.constructor,
      propertyName: property as string,
      validator: { validate: (value: unknown) => typeof value === 'string' && value.length < 3 },
    });
  };
}

class CustomClass {
  @Validate(Even) n!: number;
}
class CustomDecorator {
  @IsShort() s!: string;
}
class Conditional {
  @ValidateIf((o: { on?: boolean }) => o.on === true) @IsString() s!: string;
  @IsOptional() @IsBoolean() on?: boolean;
}
class ValidatorCondition {
  @IsString({ validateIf: () => true }) s!: string;
}
class Converted {
  @Type(() => Number) @IsNumber() n!: number;
}
class Trimmed {
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  s!: string;
}
@Exclude()
class ExcludedByDefault {
  @Allow() s!: string;
}
class Each {
  @IsString({ each: true }) tags!: string[];
}
class Accessor {
  @IsString() title!: string;
}
Object.defineProperty(Accessor.prototype, 'title', { get: () => 'fixed', set: () => undefined });
class InheritsTransform extends Trimmed {
  @IsInt() n!: number;
}

describe('DTOs the flat fast path leaves to the full path', () => {
  it.each([
    CustomClass,
    CustomDecorator,
    Conditional,
    Converted,
    Trimmed,
    ExcludedByDefault,
    Each,
    Accessor,
    InheritsTransform,
  ])('%p', (dto) => {
    const compiled = compileDto(dto, 'the fast-path test');
    expect(flatPlanOf(compiled)).toBeUndefined();
    for (const value of [{ n: 2, s: ' ab ', tags: ['a'], title: 'x' }, { s: 'ab' }, {}]) {
      compare(compiled, value);
    }
  });
});

/** class-validator 0.15 added a per-validator `validateIf`; 0.14 ignores the option. */
const hasValidatorConditions = getMetadataStorage()
  .getTargetValidationMetadatas(ValidatorCondition, '', true, false)
  .some((meta) => (meta as { validateIf?: unknown }).validateIf !== undefined);

test('a per-validator validateIf keeps the full path where class-validator honours it', () => {
  const compiled = compileDto(ValidatorCondition, 'the fast-path test');
  // Under 0.14 the option does nothing, so the fast path is equivalent and may be taken.
  if (hasValidatorConditions) expect(flatPlanOf(compiled)).toBeUndefined();
  for (const value of [{ s: 'ab' }, { s: 3 }, {}]) compare(compiled, value);
});

let built = 0;
class Counted {
  @IsString() @MinLength(3) name!: string;
  constructor() {
    built++;
  }
}

/** How many times `parse` constructs a `Counted`. */
function constructions(parse: () => object): number {
  built = 0;
  try {
    parse();
  } catch (error) {
    expect(ModelRetry.is(error)).toBe(true);
  }
  return built;
}

describe('constructor calls', () => {
  it('constructs as often as the full path: once, or never for a value rejected first', () => {
    const compiled = compileDto(Counted, 'the fast-path test');
    expect(flatPlanOf(compiled)).toBeDefined();
    const values = [{ name: 'abc' }, { name: 'ab' }, { name: 1 }, { other: 'x' }];
    const counts = values.map((value) => [
      constructions(() => toValidInstance(compiled, value, 'the arguments')),
      constructions(() => toValidInstanceFully(compiled, value, 'the arguments')),
    ]);
    expect(counts).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
      [0, 0],
    ]);
  });
});
