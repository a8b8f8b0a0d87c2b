/**
 * Type-level tests (checked by `tsc --noEmit`; the runtime assertions are trivial): the output
 * type flows from the class to `result.output` without being restated at the call site, deps are
 * typed, and declarations that would make those types lie do not compile.
 */
import { IsInt, IsString } from 'class-validator';
import { expectTypeOf } from 'expect-type';
import type { Agent as EngineAgent, CompletedResult, Result, RunContext, ToolContext } from 'golem';
import {
  Agent,
  DEPS_TYPE,
  Instructions,
  NoArgs,
  OUTPUT_TYPE,
  Output,
  PAUSABLE_TYPE,
  Tool,
  agentFromClass,
  type DepsOf,
  type OutputOf,
  type PausableOf,
} from 'golem/decorators';
import { ScriptedModel, TestModel } from 'golem/testing';

interface User {
  name: string;
}
interface Admin {
  level: number;
}

class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

class Other {
  @IsString() other!: string;
}

@Agent()
@Output(Forecast)
class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast;
  declare readonly [DEPS_TYPE]: User;

  @Instructions()
  who(ctx: RunContext<User>): string {
    return ctx.deps.name;
  }

  @Tool()
  now(_args: NoArgs, ctx: ToolContext<User>): string {
    return ctx.deps.name;
  }
}

@Agent()
class TextAgent {}

@Agent({ deferredTools: true })
class PausableAgent {
  declare readonly [PAUSABLE_TYPE]: true;
}

describe('typed results from decorated classes', () => {
  test('agentFromClass infers Agent<Deps, Output> from the class markers', async () => {
    const agent = agentFromClass(new WeatherAgent(), { model: new TestModel() });
    expectTypeOf(agent).toEqualTypeOf<EngineAgent<User, Forecast>>();

    const result = await agent.run('Weather?', { deps: { name: 'Ada' } });

    expectTypeOf(result.output).toEqualTypeOf<Forecast>();
    expectTypeOf(result).toEqualTypeOf<CompletedResult<Forecast>>();
    expect(result.output).toBeInstanceOf(Forecast);
  });

  test('runs of an agent with typed deps require them', () => {
    const agent = agentFromClass(new WeatherAgent(), { model: new ScriptedModel([]) });
    expectTypeOf(agent.run).parameters.toEqualTypeOf<
      [prompt: string, options: Parameters<typeof agent.run>[1]]
    >();
    // @ts-expect-error: deps are required and typed
    void agent.run('x').catch(() => undefined);
    // @ts-expect-error: deps must be a User
    void agent.run('x', { deps: { level: 1 } }).catch(() => undefined);
    expect(true).toBe(true);
  });

  test('a class without an output marker produces text', () => {
    expectTypeOf<OutputOf<TextAgent>>().toEqualTypeOf<string>();
    expectTypeOf<DepsOf<TextAgent>>().toEqualTypeOf<unknown>();
    expectTypeOf<PausableOf<TextAgent>>().toEqualTypeOf<false>();
  });

  test('a pausable class gets the Result union from run', () => {
    const agent = agentFromClass(new PausableAgent(), { model: new ScriptedModel([]) });
    expectTypeOf(agent.run).returns.resolves.toEqualTypeOf<Result<string>>();
  });
});

describe('declarations that would make the types lie do not compile', () => {
  test('@Output needs the class to declare the same output type', () => {
    // @ts-expect-error: the class must declare [OUTPUT_TYPE]
    @Output(Forecast)
    class Missing {}

    @Agent()
    // @ts-expect-error: [OUTPUT_TYPE] differs from the @Output class
    @Output(Forecast)
    class Different {
      declare readonly [OUTPUT_TYPE]: Other;
    }
    expect([Missing, Different]).toHaveLength(2);
  });

  test('deferredTools: true needs [PAUSABLE_TYPE]: true', () => {
    // @ts-expect-error: runs may pause, so run() must be typed to return Result
    @Agent({ deferredTools: true })
    class Undeclared {}
    expect(Undeclared).toBeDefined();
  });

  test('tool and instructions contexts must use the declared deps type', () => {
    @Agent()
    class Mismatched {
      declare readonly [DEPS_TYPE]: User;

      // @ts-expect-error: the class declares User deps
      @Tool() admin(_args: NoArgs, _ctx: ToolContext<Admin>): string {
        return '';
      }

      // @ts-expect-error: the class declares User deps
      @Instructions() level(ctx: RunContext<Admin>): string {
        return String(ctx.deps.level);
      }
    }
    expect(Mismatched).toBeDefined();
  });

  test('typed deps without a [DEPS_TYPE] declaration do not compile', () => {
    @Agent()
    class Undeclared {
      // @ts-expect-error: without [DEPS_TYPE] the deps are unknown
      @Tool() admin(_args: NoArgs, _ctx: ToolContext<Admin>): string {
        return '';
      }
    }
    expect(Undeclared).toBeDefined();
  });

  test('instructions methods return text', () => {
    @Agent()
    class Numeric {
      // @ts-expect-error: instructions are text
      @Instructions() count(): number {
        return 1;
      }
    }
    expect(Numeric).toBeDefined();
  });
});
