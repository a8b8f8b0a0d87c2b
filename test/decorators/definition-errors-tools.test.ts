/**
 * ADV-16 (agents and tools): every declaration mistake on an agent class or a tool method is a
 * typed decorators ConfigError naming the class and member, with the fix.
 */
import 'reflect-metadata';
import { IsString } from 'class-validator';
import {
  Agent,
  OUTPUT_TYPE,
  Output,
  Tool,
  agentFromClass,
  compileAgentClass,
} from 'golem/decorators';
import { ScriptedModel } from 'golem/testing';
import { definitionError, kindOf, loose } from './fixtures/definition-helpers';
import type { FixtureQuery } from './fixtures/dtos';

class Query {
  @IsString() q!: string;
}

describe('ADV-16 definition errors on agents and tools', () => {
  test('ADV-16 a class without @Agent is not-an-agent', () => {
    class Plain {}
    const error = definitionError(() => compileAgentClass(Plain));
    expect(error.reason).toBe('not-an-agent');
    expect(error.message).toBe(
      "Plain: the class has no @Agent decorator; decorate it with @Agent({ model: 'default' }) (from golem/decorators)",
    );
  });

  test('ADV-16 agentFromClass given the class instead of an instance is not-an-agent with a hint', () => {
    @Agent()
    class Decorated {}
    const error = definitionError(() =>
      agentFromClass(Decorated as unknown as object, { model: new ScriptedModel([]) }),
    );
    expect(error.reason).toBe('not-an-agent');
    expect(error.hint).toBe('pass an instance: agentFromClass(new WeatherAgent(…), { model })');
  });

  test('ADV-16 compileAgentClass given a non-class is not-an-agent', () => {
    expect(kindOf(() => compileAgentClass(42))).toBe('not-an-agent');
  });

  test('ADV-16 @Tool on a getter is tool-on-accessor', () => {
    @Agent()
    class Getter {
      // @ts-expect-error: @Tool on a getter does not type-check either
      @Tool() get value(): string {
        return '';
      }
    }
    const error = definitionError(() => compileAgentClass(Getter));
    expect({ reason: error.reason, className: error.className, member: error.member }).toEqual({
      reason: 'tool-on-accessor',
      className: 'Getter',
      member: 'value',
    });
    expect(error.message).toBe('Getter.value: @Tool() is on a getter; put it on a method instead');
  });

  test('ADV-16 @Tool on a symbol-keyed method without a name is tool-on-symbol', () => {
    const key = Symbol('search');
    @Agent()
    class Symbolic {
      @Tool() [key](_args: Query): string {
        return '';
      }
    }
    const error = definitionError(() => compileAgentClass(Symbolic));
    expect(error.reason).toBe('tool-on-symbol');
    expect(error.member).toBe('[Symbol(search)]');
  });

  test('a symbol-keyed tool method with an explicit name compiles', () => {
    const key = Symbol('search');
    @Agent()
    class Named {
      @Tool({ name: 'search' }) [key](_args: Query): string {
        return '';
      }
    }
    expect(compileAgentClass(Named).tools[0]?.name).toBe('search');
  });

  test('ADV-16 @Tool on a static method is not-a-method', () => {
    @Agent()
    class Static {
      @Tool() static search(_args: Query): string {
        return '';
      }
    }
    expect(kindOf(() => compileAgentClass(Static))).toBe('not-a-method');
  });

  test('ADV-16 @Tool on a property is not-a-method', () => {
    class Field {
      handler = (): string => '';
    }
    loose(Tool())(Field.prototype, 'handler');
    loose(Agent())(Field);
    expect(kindOf(() => compileAgentClass(Field))).toBe('not-a-method');
  });

  test('ADV-16 @Tool applied twice to one method is duplicate-tool', () => {
    @Agent()
    class Twice {
      @Tool() @Tool() search(_args: Query): string {
        return '';
      }
    }
    expect(kindOf(() => compileAgentClass(Twice))).toBe('duplicate-tool');
  });

  test('ADV-16 an output tool named like a tool is duplicate-tool', () => {
    @Agent()
    @Output(Query, { mode: 'tool', name: 'search' })
    class Clash {
      declare readonly [OUTPUT_TYPE]: Query;
      @Tool() search(_args: Query): string {
        return '';
      }
    }
    expect(kindOf(() => compileAgentClass(Clash))).toBe('duplicate-tool');
  });

  test('ADV-16 a tool name outside the portable alphabet is invalid-tool-name', () => {
    @Agent()
    class BadName {
      @Tool({ name: 'look up' }) search(_args: Query): string {
        return '';
      }
    }
    expect(kindOf(() => compileAgentClass(BadName))).toBe('invalid-tool-name');
  });

  test('ADV-16 a toolchain without decorator metadata is detected and explained (missing-metadata)', () => {
    class Esbuilt {
      search(_args: Query): string {
        return '';
      }
    }
    loose(Tool())(
      Esbuilt.prototype,
      'search',
      Object.getOwnPropertyDescriptor(Esbuilt.prototype, 'search'),
    );
    loose(Agent())(Esbuilt);
    const error = definitionError(() => compileAgentClass(Esbuilt));
    expect(error.reason).toBe('missing-metadata');
    expect(error.message).toContain('Esbuilt.search: cannot tell the argument type of this tool');
    expect(error.hint).toContain('@Tool({ args: TheArgsClass })');
    expect(error.hint).toContain('emitDecoratorMetadata');
  });

  test('@Tool({ args }) works without decorator metadata', () => {
    class Esbuilt {
      search(args: Query): string {
        return args.q;
      }
    }
    loose(Tool({ args: Query }))(
      Esbuilt.prototype,
      'search',
      Object.getOwnPropertyDescriptor(Esbuilt.prototype, 'search'),
    );
    loose(Agent())(Esbuilt);
    expect(compileAgentClass(Esbuilt).tools[0]).toMatchObject({ name: 'search', args: Query });
  });

  test('a method without parameters needs no metadata', () => {
    class Esbuilt {
      now(): string {
        return 'now';
      }
    }
    loose(Tool())(
      Esbuilt.prototype,
      'now',
      Object.getOwnPropertyDescriptor(Esbuilt.prototype, 'now'),
    );
    loose(Agent())(Esbuilt);
    expect(compileAgentClass(Esbuilt).tools[0]?.args).toBeUndefined();
  });

  test.each([
    ['an interface', 'interface'],
    ['a union', 'union'],
    ['a primitive', 'primitive'],
    ['an import type class', 'importType'],
  ])('ADV-16 arguments typed as %s are unreflectable-args', (_label, member) => {
    interface Shape {
      q: string;
    }
    @Agent()
    class Unreflectable {
      @Tool() interface(_args: Shape): string {
        return '';
      }
    }
    @Agent()
    class Union {
      @Tool() union(_args: Query | Shape): string {
        return '';
      }
    }
    @Agent()
    class Primitive {
      @Tool() primitive(_city: string): string {
        return '';
      }
    }
    @Agent()
    class ImportType {
      @Tool() importType(_args: FixtureQuery): string {
        return '';
      }
    }
    const classes: Record<string, object> = {
      interface: Unreflectable,
      union: Union,
      primitive: Primitive,
      importType: ImportType,
    };
    const error = definitionError(() => compileAgentClass(classes[member]));
    expect(error.reason).toBe('unreflectable-args');
    expect(error.member).toBe(member);
  });

  test('ADV-16 @Tool({ args }) disagreeing with the parameter type is args-mismatch', () => {
    class Other {
      @IsString() other!: string;
    }
    @Agent()
    class Mismatch {
      @Tool({ args: Other }) search(_args: Query): string {
        return '';
      }
    }
    expect(kindOf(() => compileAgentClass(Mismatch))).toBe('args-mismatch');
  });

  test('ADV-16 an instance property shadowing a tool method is not-a-method', () => {
    @Agent()
    class Shadowed {
      @Tool() search(_args: Query): string {
        return '';
      }
    }
    const instance = Object.assign(new Shadowed(), { search: 'oops' });
    const error = definitionError(() => agentFromClass(instance, { model: new ScriptedModel([]) }));
    expect({ reason: error.reason, member: error.member }).toEqual({
      reason: 'not-a-method',
      member: 'search',
    });
  });
});
