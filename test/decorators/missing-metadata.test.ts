/**
 * Decorated classes compiled without decorator metadata, as tsx, esbuild and Vite ≤ 7 compile
 * them (decorators applied by hand here: no `design:*` key is recorded). A DTO whose validators
 * state every property's type gets the same schema and the same validation as with metadata; a
 * property whose type only metadata stated, and a tool whose argument class only the parameter
 * type named, are `missing-metadata` errors naming the class, the member and the fix.
 * (test/toolchains runs the real toolchains.)
 */
import { Type } from 'class-transformer';
import {
  Allow,
  IsArray,
  IsBoolean,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { ModelRetry, type ToolContext } from 'golem';
import { Agent, NoArgs, Tool, compileAgentClass, dtoSchema, validateDto } from 'golem/decorators';
import { EMPTY_OBJECT_SCHEMA } from '../../decorators/schema/dto-schema';
import { definitionError, loose } from './fixtures/definition-helpers';

/** Applies property decorators by hand, bottom-up as TypeScript does, recording no metadata. */
function declare(dto: new () => object, property: string, ...decorators: unknown[]): void {
  const prototype = dto.prototype as object;
  for (const decorator of decorators.reverse()) loose(decorator)(prototype, property);
}

/** The same DTOs twice: `reflected` with decorator metadata, `bare` without. */
function forecastDtos(): { reflected: new () => object; bare: new () => object } {
  class Day {
    @IsString() date!: string;
    @IsInt() @Min(-90) @Max(60) celsius!: number;
  }
  class Forecast {
    @IsString() @IsNotEmpty() city!: string;
    @IsOptional() @IsInt() @Min(0) @Max(7) ahead?: number;
    @IsBoolean() metric!: boolean;
    @IsString({ each: true }) tags!: string[];
    @IsArray() @ValidateNested({ each: true }) @Type(() => Day) days!: Day[];
  }
  return { reflected: Forecast, bare: bareForecast() };
}

function bareForecast(): new () => object {
  class Day {
    date!: string;
    celsius!: number;
  }
  declare(Day, 'date', IsString());
  declare(Day, 'celsius', IsInt(), Min(-90), Max(60));
  class Forecast {
    city!: string;
    ahead?: number;
    metric!: boolean;
    tags!: string[];
    days!: Day[];
  }
  declare(Forecast, 'city', IsString(), IsNotEmpty());
  declare(Forecast, 'ahead', IsOptional(), IsInt(), Min(0), Max(7));
  declare(Forecast, 'metric', IsBoolean());
  declare(Forecast, 'tags', IsString({ each: true }));
  declare(
    Forecast,
    'days',
    IsArray(),
    ValidateNested({ each: true }),
    Type(() => Day),
  );
  return Forecast;
}

/** What validation makes of `value`: the instance as JSON, or the ModelRetry message. */
function outcome(dto: new () => object, value: unknown): string {
  try {
    return JSON.stringify(validateDto(dto, value));
  } catch (error) {
    if (error instanceof ModelRetry) return `retry: ${error.message}`;
    throw error;
  }
}

describe('DTOs whose validators state every type', () => {
  const { reflected, bare } = forecastDtos();

  test('really have no design:type without metadata (the premise of these tests)', () => {
    expect(Reflect.hasMetadata('design:type', reflected.prototype as object, 'city')).toBe(true);
    expect(Reflect.hasMetadata('design:type', bare.prototype as object, 'city')).toBe(false);
  });

  test('get the same schema with and without metadata (minLength from @IsNotEmpty included)', () => {
    const schema = dtoSchema(bare);
    expect(schema).toEqual(dtoSchema(reflected));
    expect(schema.properties).toMatchObject({ city: { type: 'string', minLength: 1 } });
  });

  test.each<[string, unknown]>([
    [
      'a valid value',
      { city: 'Lagos', metric: true, tags: ['hot'], days: [{ date: 'd', celsius: 30 }] },
    ],
    ['an array for a string', { city: ['Lagos'], metric: true, tags: [], days: [] }],
    ['a string for an array', { city: 'Lagos', metric: true, tags: 'hot', days: [] }],
    ['a number for a boolean', { city: 'Lagos', metric: 1, tags: [], days: [] }],
    [
      'an object for a nested array',
      { city: 'Lagos', metric: true, tags: [], days: { date: 'd' } },
    ],
    [
      'a bad nested value',
      { city: 'Lagos', metric: true, tags: [], days: [{ date: 1, celsius: 99 }] },
    ],
  ])('validate %s the same way with and without metadata', (_name, value) => {
    expect(outcome(bare, value)).toBe(outcome(reflected, value));
  });
});

describe('a DTO property whose type only metadata states', () => {
  test('is missing-metadata without metadata, naming the DTO, the property and the validators to add', () => {
    class Loose {
      name!: string;
    }
    declare(Loose, 'name', IsNotEmpty());
    const error = definitionError(() => dtoSchema(Loose));
    expect(error.reason).toBe('missing-metadata');
    expect(error.className).toBe('Loose');
    expect(error.member).toBe('name');
    expect(error.message).toMatch(
      /^Loose\.name: the type of this property is unknown: the toolchain did not emit decorator metadata \(design:type\) and no validator states the type \(in the schema of Loose\); add a validator that states it — @IsString\(\)/,
    );
    expect(error.hint).toContain('"emitDecoratorMetadata"');
  });

  test('compiles with metadata', () => {
    class Reflected {
      @IsNotEmpty() name!: string;
    }
    expect(dtoSchema(Reflected).properties).toEqual({ name: { type: 'string', minLength: 1 } });
  });

  test('is named in an agent definition by the tool that uses it', () => {
    class Query {
      q!: string;
    }
    declare(Query, 'q', Allow());
    class Searcher {
      search(args: Query): string {
        return args.q;
      }
    }
    const descriptor = Object.getOwnPropertyDescriptor(Searcher.prototype, 'search');
    loose(Tool({ args: Query }))(Searcher.prototype, 'search', descriptor);
    loose(Agent())(Searcher);
    const error = definitionError(() => compileAgentClass(Searcher));
    expect(error.reason).toBe('missing-metadata');
    expect(error.message).toContain('Query.q: ');
    expect(error.message).toContain('(in the arguments of Searcher.search)');
  });

  test('@JSONSchema({ type }) states the type, too', () => {
    class Anything {
      value!: unknown;
    }
    declare(Anything, 'value', Allow(), JSONSchema({ type: ['string', 'number'] }));
    expect(dtoSchema(Anything).properties).toEqual({ value: { type: ['string', 'number'] } });
  });
});

describe('tools without metadata', () => {
  test('@Tool({ args: NoArgs }) declares a tool that takes only its context', () => {
    class Clock {
      now(_args: NoArgs, ctx: ToolContext<{ zone: string }>): string {
        return ctx.deps.zone;
      }
    }
    const descriptor = Object.getOwnPropertyDescriptor(Clock.prototype, 'now');
    loose(Tool({ args: NoArgs }))(Clock.prototype, 'now', descriptor);
    loose(Agent())(Clock);
    expect(Reflect.hasMetadata('design:paramtypes', Clock.prototype, 'now')).toBe(false);
    expect(compileAgentClass(Clock).tools[0]).toMatchObject({
      name: 'now',
      args: undefined,
      schema: EMPTY_OBJECT_SCHEMA,
    });
  });

  test('a tool whose argument class only the parameter type names is missing-metadata, naming @Tool({ args })', () => {
    class Clock {
      now(_args: NoArgs, ctx: ToolContext<{ zone: string }>): string {
        return ctx.deps.zone;
      }
    }
    const descriptor = Object.getOwnPropertyDescriptor(Clock.prototype, 'now');
    loose(Tool())(Clock.prototype, 'now', descriptor);
    loose(Agent())(Clock);
    const error = definitionError(() => compileAgentClass(Clock));
    expect(error.reason).toBe('missing-metadata');
    expect(error.message).toMatch(/^Clock\.now: cannot tell the argument type of this tool;/);
    expect(error.hint).toContain('@Tool({ args: TheArgsClass })');
    expect(error.hint).toContain('@Tool({ args: NoArgs }) for a tool that takes only the context');
  });
});
