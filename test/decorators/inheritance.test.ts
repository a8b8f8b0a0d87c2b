/**
 * ADV-15: decorator inheritance is copy-on-write. A subclass adds and overrides tools without
 * changing what its base compiles to; same-name collisions are definition errors.
 */
import { IsString } from 'class-validator';
import { Agent, Instructions, Tool, agentFromClass, compileAgentClass } from 'golem/decorators';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { ConfigError } from 'golem';

class Query {
  @IsString() q!: string;
}

function definitionError(build: () => unknown): ConfigError {
  try {
    build();
  } catch (error) {
    if (ConfigError.is(error, 'decorators')) return error;
    throw error;
  }
  throw new Error('expected a decorators ConfigError');
}

describe('ADV-15 decorator inheritance', () => {
  test("ADV-15 a base's compiled tool set is unchanged after a subclass adds a tool", () => {
    @Agent({ maxIterations: 4 })
    class Base {
      @Tool() search(_args: Query): string {
        return 'base search';
      }
    }
    const before = compileAgentClass(Base).tools.map((t) => t.name);

    @Agent()
    class Child extends Base {
      @Tool() fetch(_args: Query): string {
        return 'child fetch';
      }
    }

    expect(compileAgentClass(Child).tools.map((t) => t.name)).toEqual(['search', 'fetch']);
    expect(before).toEqual(['search']);
    // A fresh base class, compiled only after the child was declared, is unchanged too.
    expect(Reflect.getOwnMetadata('golem:tools', Base)).toHaveLength(1);
  });

  test('ADV-15 a base compiled after its subclass was declared still has only its own tools', () => {
    @Agent()
    class LateBase {
      @Tool() search(_args: Query): string {
        return '';
      }
    }
    @Agent()
    class LateChild extends LateBase {
      @Tool() fetch(_args: Query): string {
        return '';
      }
    }
    expect(compileAgentClass(LateChild).tools).toHaveLength(2);
    expect(compileAgentClass(LateBase).tools.map((t) => t.name)).toEqual(['search']);
  });

  test('ADV-15 a subclass re-decorating a base tool replaces its options in place', () => {
    @Agent()
    class Base {
      @Tool({ description: 'base' }) search(_args: Query): string {
        return 'base';
      }
      @Tool() other(): string {
        return '';
      }
    }
    @Agent()
    class Child extends Base {
      @Tool({ description: 'child', timeout: 50 })
      override search(_args: Query): string {
        return 'child';
      }
    }
    expect(
      compileAgentClass(Child).tools.map((t) => [t.name, t.description, t.declaredBy]),
    ).toEqual([
      ['search', 'child', 'Child'],
      ['other', '', 'Base'],
    ]);
    expect(compileAgentClass(Base).tools[0]).toMatchObject({
      description: 'base',
      declaredBy: 'Base',
    });
  });

  test('ADV-15 an override without @Tool keeps the base declaration and runs the override', async () => {
    @Agent()
    class Base {
      @Tool({ description: 'base' }) search(_args: Query): string {
        return 'base';
      }
    }
    @Agent()
    class Child extends Base {
      override search(args: Query): string {
        return `child:${args.q}`;
      }
    }
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'search', args: { q: 'x' } }]),
      textResponse('done'),
    ]);
    const result = await agentFromClass(new Child(), { model }).run('go');
    expect(compileAgentClass(Child).tools[0]).toMatchObject({ description: 'base' });
    expect(result.messages[2]?.content).toBe('child:x');
  });

  test('ADV-15 a subclass tool with the name of a base tool on another method is a duplicate-tool error', () => {
    @Agent()
    class Base {
      @Tool() search(_args: Query): string {
        return '';
      }
    }
    @Agent()
    class Child extends Base {
      @Tool({ name: 'search' }) find(_args: Query): string {
        return '';
      }
    }
    const error = definitionError(() => compileAgentClass(Child));
    expect(error.reason).toBe('duplicate-tool');
    expect(error.message).toBe(
      'Child.find: tool "search" is declared twice: by Base.search and by Child.find; give one of them another name: @Tool({ name: "…" })',
    );
    expect(compileAgentClass(Base).tools).toHaveLength(1);
  });

  test('ADV-15 two methods of one class declaring the same tool name is a duplicate-tool error', () => {
    @Agent()
    class Twice {
      @Tool({ name: 'lookup' }) first(_args: Query): string {
        return '';
      }
      @Tool({ name: 'lookup' }) second(_args: Query): string {
        return '';
      }
    }
    const error = definitionError(() => compileAgentClass(Twice));
    expect({ reason: error.reason, className: error.className, member: error.member }).toEqual({
      reason: 'duplicate-tool',
      className: 'Twice',
      member: 'second',
    });
    expect(error.message).toContain(
      'tool "lookup" is declared twice: by Twice.first and by Twice.second',
    );
  });

  test('a subclass inherits @Agent options and overrides them one by one', () => {
    @Agent({ model: 'fast', maxIterations: 4, toolRetries: 1 })
    class Base {}
    @Agent({ maxIterations: 8 })
    class Child extends Base {}
    class Grandchild extends Child {}
    expect(compileAgentClass(Grandchild)).toMatchObject({
      className: 'Grandchild',
      model: 'fast',
      options: { maxIterations: 8, toolRetries: 1 },
    });
    expect(compileAgentClass(Base).options).toEqual({ maxIterations: 4, toolRetries: 1 });
  });

  test("instructions run base first, and a re-decorated method replaces the base's in place", () => {
    @Agent()
    @Instructions('Base text.')
    class Base {
      @Instructions() tone(): string {
        return 'base tone';
      }
    }
    @Agent()
    @Instructions('Child text.')
    class Child extends Base {
      @Instructions() override tone(): string {
        return 'child tone';
      }
    }
    expect(compileAgentClass(Child).instructions).toEqual([
      { kind: 'text', text: 'Base text.' },
      { kind: 'method', member: 'tone', declaredBy: 'Child' },
      { kind: 'text', text: 'Child text.' },
    ]);
    expect(compileAgentClass(Base).instructions).toHaveLength(2);
  });
});
