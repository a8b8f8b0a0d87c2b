/**
 * ADV-16 (DTOs, output, instructions, options): typed definition errors; building is idempotent;
 * identity survives duplicate package copies.
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import {
  IsEnum,
  IsInt,
  IsString,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { GolemError, findError, type RunContext, ConfigError } from 'golem';
import {
  Agent,
  Instructions,
  Output,
  Tool,
  agentFromClass,
  compileAgentClass,
  dtoSchema,
} from 'golem/decorators';
import { ScriptedModel, textResponse } from 'golem/testing';
import { definitionError, kindOf, loose } from './fixtures/definition-helpers';
import { configErrorGuard } from '../support/config-error';

class Query {
  @IsString() q!: string;
}

describe('ADV-16 definition errors on DTOs, output, instructions and options', () => {
  test('ADV-16 an argument class without validators is invalid-dto', () => {
    class Bare {
      q = '';
    }
    @Agent()
    class UsesBare {
      @Tool() search(_args: Bare): string {
        return '';
      }
    }
    const error = definitionError(() => compileAgentClass(UsesBare));
    expect(error.reason).toBe('invalid-dto');
    expect(error.message).toBe(
      'Bare: the class has no class-validator decorators, so every value would be rejected (in the arguments of UsesBare.search); decorate each property (e.g. @IsString(), @IsInt(), @Allow())',
    );
  });

  test('ADV-16 a DTO field with an initial value and no validator is invalid-dto', () => {
    class HalfDecorated {
      @IsString() q!: string;
      limit = 10;
    }
    const error = definitionError(() => dtoSchema(HalfDecorated));
    expect({ reason: error.reason, member: error.member }).toEqual({
      reason: 'invalid-dto',
      member: 'limit',
    });
  });

  test('ADV-16 a DTO whose constructor needs arguments is invalid-dto', () => {
    class NeedsArgument {
      @IsString() q: string;
      constructor(q: string) {
        this.q = q.trim();
      }
    }
    @Agent()
    class UsesIt {
      @Tool() search(_args: NeedsArgument): string {
        return '';
      }
    }
    expect(kindOf(() => compileAgentClass(UsesIt))).toBe('invalid-dto');
  });

  test('ADV-16 a nested DTO without @Type is nested-without-type', () => {
    class Inner {
      @IsString() name!: string;
    }
    class Outer {
      @ValidateNested() inner!: Inner;
    }
    const error = definitionError(() => dtoSchema(Outer));
    expect({ reason: error.reason, className: error.className, member: error.member }).toEqual({
      reason: 'nested-without-type',
      className: 'Outer',
      member: 'inner',
    });
    expect(error.hint).toContain('@Type(() => TheClass)');
  });

  test('ADV-16 a nested DTO with @Type but no @ValidateNested is invalid-dto', () => {
    class Inner {
      @IsString() name!: string;
    }
    class Outer {
      @IsString({ each: false }) label!: string;
      @Type(() => Inner) inner!: Inner;
    }
    expect(kindOf(() => dtoSchema(Outer))).toBe('invalid-dto');
  });

  test('ADV-16 @IsEnum over a numeric enum is numeric-enum', () => {
    enum Level {
      Low,
      High,
    }
    class Leveled {
      @IsEnum(Level) level!: Level;
    }
    expect(kindOf(() => dtoSchema(Leveled))).toBe('numeric-enum');
  });

  test('ADV-16 two nested DTO classes with one name are schema-name-collision (P15)', () => {
    const makePoint = (field: string) => {
      class Point {}
      IsInt()(Point.prototype, field);
      return Point;
    };
    const A = makePoint('x');
    const B = makePoint('y');
    class Segment {
      @ValidateNested() @Type(() => A) from!: object;
      @ValidateNested() @Type(() => B) to!: object;
    }
    const error = definitionError(() => dtoSchema(Segment));
    expect(error.reason).toBe('schema-name-collision');
    expect(error.message).toContain('two different DTO classes are named "Point"');
  });

  test('ADV-16 an asynchronous validator is async-validator', () => {
    @ValidatorConstraint({ name: 'remoteCheck', async: true })
    class RemoteCheck implements ValidatorConstraintInterface {
      validate(): Promise<boolean> {
        return Promise.resolve(true);
      }
    }
    class Checked {
      @Validate(RemoteCheck) @IsString() code!: string;
    }
    expect(kindOf(() => dtoSchema(Checked))).toBe('async-validator');
  });

  test.each([
    ['undefined (TDZ or a circular import)', undefined],
    ['Object (an un-reflectable type)', Object],
    ['String', String],
  ])('ADV-16 @Output with %s is invalid-output', (_label, dto) => {
    class Broken {}
    loose(Output(dto as unknown as new () => object))(Broken);
    loose(Agent())(Broken);
    const error = definitionError(() => compileAgentClass(Broken));
    expect(error.reason).toBe('invalid-output');
    expect(error.className).toBe('Broken');
  });

  test('ADV-16 @Output with a class without validators is invalid-output', () => {
    class Bare {
      city = '';
    }
    class Broken {}
    loose(Output(Bare))(Broken);
    loose(Agent())(Broken);
    expect(definitionError(() => compileAgentClass(Broken)).message).toBe(
      'Broken: the output class Bare has no class-validator decorators; decorate each property (e.g. @IsString(), @IsInt()) so the output can be validated',
    );
  });

  test('ADV-16 @Output declared twice is invalid-output', () => {
    class Twice {}
    loose(Output(Query))(Twice);
    loose(Output(Query))(Twice);
    loose(Agent())(Twice);
    expect(kindOf(() => compileAgentClass(Twice))).toBe('invalid-output');
  });

  test('ADV-16 class @Instructions with a non-string is instructions-not-string', () => {
    class Numeric {}
    loose(Instructions(42 as unknown as string))(Numeric);
    loose(Agent())(Numeric);
    expect(kindOf(() => compileAgentClass(Numeric))).toBe('instructions-not-string');
  });

  test('ADV-16 class @Instructions() without text is instructions-not-string', () => {
    @Agent()
    // @ts-expect-error: @Instructions() without text is a method decorator
    @Instructions()
    class Empty {}
    expect(definitionError(() => compileAgentClass(Empty)).hint).toContain(
      'put @Instructions() on a method',
    );
  });

  test('ADV-16 an instructions method returning a non-string fails the run before any model call', async () => {
    @Agent()
    class Counting {
      // @ts-expect-error: instructions methods return text
      @Instructions() count(_ctx: RunContext<unknown>): number {
        return 3;
      }
    }
    const model = new ScriptedModel([textResponse('unused')]);
    const failure: unknown = await agentFromClass(new Counting(), { model })
      .run('go')
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const cause = findError(failure, configErrorGuard('decorators'));
    expect(cause?.reason).toBe('instructions-not-string');
    expect(cause?.message).toBe(
      'Counting.count: the instructions method returned number, not a string; return the instructions text (or "" for none)',
    );
    expect(model.requests).toHaveLength(0);
  });

  test('ADV-16 an unknown @Agent option is invalid-option', () => {
    class Typo {}
    loose(Agent({ maxIteration: 3 } as never))(Typo);
    expect(definitionError(() => compileAgentClass(Typo)).message).toContain(
      '@Agent has an unknown option "maxIteration"',
    );
  });

  test('ADV-16 an @Agent option the engine rejects is invalid-option with the engine error as cause', () => {
    @Agent({ maxIterations: 0 })
    class Zero {}
    const error = definitionError(() => compileAgentClass(Zero));
    expect(error.reason).toBe('invalid-option');
    expect(GolemError.isGolemError(error.cause)).toBe(true);
  });

  test('ADV-16 toolChoice naming no tool is invalid-option', () => {
    @Agent({ toolChoice: 'missing' })
    class Choosy {
      @Tool() search(_args: Query): string {
        return '';
      }
    }
    expect(kindOf(() => compileAgentClass(Choosy))).toBe('invalid-option');
  });

  test('ADV-16 a negative tool timeout is invalid-option naming the method', () => {
    @Agent()
    class Negative {
      @Tool({ timeout: -1 }) search(_args: Query): string {
        return '';
      }
    }
    const error = definitionError(() => compileAgentClass(Negative));
    expect({ reason: error.reason, member: error.member }).toEqual({
      reason: 'invalid-option',
      member: 'search',
    });
  });
});

describe('ADV-16 building is idempotent', () => {
  @Agent({ maxIterations: 3 })
  class Built {
    @Tool() search(args: Query): string {
      return args.q;
    }
  }

  test('ADV-16 compiling a class twice returns the same frozen definition', () => {
    const first = compileAgentClass(Built);
    expect(compileAgentClass(Built)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.tools)).toBe(true);
    expect(Object.isFrozen(first.tools[0]?.schema)).toBe(true);
  });

  test('ADV-16 two agents from one class share the definition and advertise the same tools', async () => {
    const one = new ScriptedModel([textResponse('a')]);
    const two = new ScriptedModel([textResponse('b')]);
    await agentFromClass(new Built(), { model: one }).run('x');
    await agentFromClass(new Built(), { model: two }).run('x');
    expect(one.requests[0]?.tools).toEqual(two.requests[0]?.tools);
  });

  test('ADV-16 a failing class fails the same way every time (nothing half-built is cached)', () => {
    class Bare {
      q = '';
    }
    @Agent()
    class Failing {
      @Tool() search(_args: Bare): string {
        return '';
      }
    }
    expect(kindOf(() => compileAgentClass(Failing))).toBe('invalid-dto');
    expect(kindOf(() => compileAgentClass(Failing))).toBe('invalid-dto');
  });
});

describe('ADV-16 identity across package copies', () => {
  test('ADV-16 ConfigError.is recognises a decorators error from another copy of the package', () => {
    let Copy: typeof ConfigError | undefined;
    jest.isolateModules(() => {
      // A second, independent instance of the module, as a duplicate node_modules copy would be.
      ({ ConfigError: Copy } = jest.requireActual<typeof import('golem')>('golem'));
    });
    if (Copy === undefined) throw new Error('module copy not loaded');
    const foreign = new Copy('x', {
      component: 'decorators',
      reason: 'duplicate-tool',
      className: 'X',
    });
    expect(Copy).not.toBe(ConfigError);
    expect(foreign instanceof ConfigError).toBe(false);
    expect(ConfigError.is(foreign, 'decorators')).toBe(true);
    expect(ConfigError.is(foreign, 'decorators', 'duplicate-tool')).toBe(true);
    expect(GolemError.isGolemError(foreign)).toBe(true);
    expect(foreign.reason).toBe('duplicate-tool');
    expect(foreign.name).toBe('ConfigError');
  });

  test('ConfigError.is with the decorators component rejects other errors', () => {
    expect(ConfigError.is(new Error('x'), 'decorators')).toBe(false);
    expect(ConfigError.is({ kind: 'duplicate-tool' }, 'decorators')).toBe(false);
  });
});
