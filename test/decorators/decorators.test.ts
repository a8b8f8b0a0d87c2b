/**
 * Every decorator only records: own metadata under namespaced `golem:` keys, replaced (never
 * mutated) on every write. What the records mean is the builder's business (compile tests).
 */
import { IsInt, IsString, getMetadataStorage } from 'class-validator';
import {
  Agent,
  Describe,
  Instructions,
  NoArgs,
  Nullable,
  OUTPUT_TYPE,
  Output,
  Tool,
  compileAgentClass,
  dtoSchema,
  snakeCase,
} from 'golem/decorators';
import type { RunContext, ToolContext } from 'golem';
import { JSONSchema } from 'class-validator-jsonschema';

class Args {
  @IsString() city!: string;
}

class Report {
  @IsString() city!: string;
}

@Agent({ model: 'fast', maxIterations: 3, toolRetries: 2, parallelToolCalls: true })
@Instructions('First.')
@Instructions('Second.')
@Output(Report, { mode: 'tool', name: 'record_report', description: 'The report' })
class Recorded {
  declare readonly [OUTPUT_TYPE]: Report;

  @Instructions()
  dynamic(ctx: RunContext<unknown>): string {
    return String(ctx.deps);
  }

  @Tool({ description: 'Looks up a city', timeout: 100, maxRetries: 1, sequential: true })
  lookUp(_args: Args, _ctx: ToolContext): string {
    return '';
  }

  @Tool({ name: 'ping', approval: true })
  noArgs(): string {
    return 'pong';
  }
}

describe('@Agent', () => {
  test('records its options as own metadata under golem:agent', () => {
    expect(Reflect.getOwnMetadata('golem:agent', Recorded)).toEqual({
      options: { model: 'fast', maxIterations: 3, toolRetries: 2, parallelToolCalls: true },
    });
  });

  test('records a copy: changing the options object afterwards changes nothing', () => {
    const options = { maxIterations: 2 };
    @Agent(options)
    class Copied {}
    options.maxIterations = 9;
    expect(compileAgentClass(Copied).options).toEqual({ maxIterations: 2 });
  });

  test('without options records an empty object and the model name defaults to "default"', () => {
    @Agent()
    class Plain {}
    expect(compileAgentClass(Plain).model).toBe('default');
    expect(compileAgentClass(Plain).options).toEqual({});
  });
});

describe('@Instructions', () => {
  test('keeps class texts in reading order, then methods in declaration order', () => {
    expect(compileAgentClass(Recorded).instructions).toEqual([
      { kind: 'text', text: 'First.' },
      { kind: 'text', text: 'Second.' },
      { kind: 'method', member: 'dynamic', declaredBy: 'Recorded' },
    ]);
  });

  test('records under golem:instructions as a frozen list', () => {
    const records: unknown = Reflect.getOwnMetadata('golem:instructions', Recorded);
    expect(Object.isFrozen(records)).toBe(true);
    expect(records).toHaveLength(3);
  });
});

describe('@Tool', () => {
  test('names a tool after its method in snake_case unless named', () => {
    expect(compileAgentClass(Recorded).tools.map((t) => t.name)).toEqual(['look_up', 'ping']);
  });

  test('carries description, timeout, retries, sequential and approval into the definition', () => {
    const [lookUp, ping] = compileAgentClass(Recorded).tools;
    expect(lookUp).toMatchObject({
      description: 'Looks up a city',
      timeout: 100,
      maxRetries: 1,
      sequential: true,
      args: Args,
      member: 'lookUp',
    });
    expect(ping).toMatchObject({ description: '', approval: true, args: undefined });
  });

  test('a method without parameters gets the empty-object schema', () => {
    expect(compileAgentClass(Recorded).tools[1]?.schema).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });

  test('a NoArgs first parameter also means no arguments', () => {
    @Agent()
    class WithContext {
      @Tool()
      now(_args: NoArgs, ctx: ToolContext): string {
        return ctx.toolName;
      }
    }
    expect(compileAgentClass(WithContext).tools[0]).toMatchObject({ name: 'now', args: undefined });
  });

  test('records under golem:tools on the class, not on its prototype', () => {
    expect(Reflect.getOwnMetadata('golem:tools', Recorded)).toHaveLength(2);
    expect(Reflect.getOwnMetadata('golem:tools', Recorded.prototype)).toBeUndefined();
  });
});

describe('@Output', () => {
  test('records the DTO and the options', () => {
    expect(compileAgentClass(Recorded).output).toMatchObject({
      dto: Report,
      mode: 'tool',
      name: 'record_report',
      description: 'The report',
    });
  });

  test('adds the description to the advertised schema', () => {
    expect(compileAgentClass(Recorded).output?.schema).toMatchObject({
      description: 'The report',
    });
  });

  test('defaults to native mode and the final_result tool name', () => {
    @Agent()
    @Output(Report)
    class Native {
      declare readonly [OUTPUT_TYPE]: Report;
    }
    expect(compileAgentClass(Native).output).toMatchObject({
      mode: 'native',
      name: 'final_result',
    });
  });

  test('uses a given schema for the model instead of the generated one', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    @Agent()
    @Output(Report, { schema })
    class Given {
      declare readonly [OUTPUT_TYPE]: Report;
    }
    expect(compileAgentClass(Given).output?.schema).toEqual(schema);
  });
});

describe('@Describe', () => {
  test('sets the description of a property', () => {
    class Described {
      @Describe('The city') @IsString() city!: string;
    }
    expect(dtoSchema(Described).properties).toEqual({
      city: { type: 'string', description: 'The city' },
    });
  });

  test('merges with @JSONSchema written after it (P14)', () => {
    class Merged {
      @Describe('Days ahead') @JSONSchema({ examples: [3] }) @IsInt() days!: number;
    }
    expect(dtoSchema(Merged).properties).toEqual({
      days: { type: 'integer', description: 'Days ahead', examples: [3] },
    });
  });

  test('survives a @JSONSchema written before it, which replaces the stored fragment', () => {
    class Replaced {
      @JSONSchema({ examples: [3] }) @Describe('Days ahead') @IsInt() days!: number;
    }
    expect(dtoSchema(Replaced).properties).toEqual({
      days: { type: 'integer', description: 'Days ahead', examples: [3] },
    });
  });

  test('on a class sets the schema description', () => {
    @Describe('A place')
    class Place {
      @IsString() name!: string;
    }
    expect(dtoSchema(Place).description).toBe('A place');
  });
});

describe('@Nullable', () => {
  test('adds null to the type, keeps the property required, and registers a conditional validator', () => {
    class Maybe {
      @Nullable() @IsString() note!: string | null;
    }
    expect(dtoSchema(Maybe)).toMatchObject({
      properties: { note: { type: ['string', 'null'] } },
      required: ['note'],
    });
    const metas = getMetadataStorage().getTargetValidationMetadatas(Maybe, '', true, false);
    expect(metas.map((m) => m.type)).toContain('conditionalValidation');
  });
});

describe('snakeCase', () => {
  test.each([
    ['getWeather', 'get_weather'],
    ['fetchURL', 'fetch_url'],
    ['HTMLParser', 'html_parser'],
    ['forecast2Days', 'forecast2_days'],
    ['search', 'search'],
    ['already_snake', 'already_snake'],
  ])('%s becomes %s', (name, expected) => {
    expect(snakeCase(name)).toBe(expected);
  });
});
