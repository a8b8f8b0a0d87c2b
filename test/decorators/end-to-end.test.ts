/**
 * Decorated agents running on the engine, offline: TestModel (no script) and ScriptedModel
 * (exact turns). Tools run on the instance with validated DTOs; corrections happen within the
 * class's retry budgets; output arrives as a validated instance, natively or through a tool.
 */
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min, ValidateNested } from 'class-validator';
import { RunError, defineTool, findError, type RunContext, type ToolContext } from 'golem';
import {
  Agent,
  DEPS_TYPE,
  Describe,
  Instructions,
  NoArgs,
  OUTPUT_TYPE,
  Output,
  PAUSABLE_TYPE,
  Tool,
  agentFromClass,
  compileAgentClass,
} from 'golem/decorators';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';

import { AttemptsExhaustedError, TurnLimitError } from '../support/internal-errors';
interface User {
  name: string;
}

class ForecastArgs {
  @Describe('City name') @IsString() city!: string;
  @Describe('Days ahead') @IsOptional() @IsInt() @Min(0) @Max(7) days?: number;
}

class Day {
  @IsInt() celsius!: number;
}

class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Day) days?: Day[];
}

@Agent({ toolRetries: 1, outputRetries: 1, modelSettings: { temperature: 0 } })
@Instructions('You are a concise weather assistant.')
@Output(Forecast)
class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast;
  declare readonly [DEPS_TYPE]: User;
  readonly seen: Array<{ args: unknown; deps: string; tool: string; self: boolean }> = [];

  constructor(private readonly prefix = 'forecast') {}

  @Instructions()
  greeting(ctx: RunContext<User>): string {
    return `The user is ${ctx.deps.name}.`;
  }

  @Tool({ description: 'Forecast for one city' })
  async forecast(args: ForecastArgs, ctx: ToolContext<User>): Promise<string> {
    await Promise.resolve();
    this.seen.push({
      args,
      deps: ctx.deps.name,
      tool: ctx.toolName,
      self: this instanceof WeatherAgent,
    });
    return `${this.prefix}: sunny in ${args.city}`;
  }
}

describe('decorated agents on TestModel', () => {
  test('runs offline: tools get DTO instances with this bound, output is a validated instance', async () => {
    const model = new TestModel();
    const instance = new WeatherAgent();

    const result = await agentFromClass(instance, { model }).run('Weather?', {
      deps: { name: 'Ada' },
    });

    expect(result.output).toBeInstanceOf(Forecast);
    expect(result.output.days?.[0]).toBeInstanceOf(Day);
    expect(instance.seen).toEqual([
      { args: expect.any(ForecastArgs) as unknown, deps: 'Ada', tool: 'forecast', self: true },
    ]);
    expect(result.messages[0]).toEqual({
      role: 'system',
      content: 'You are a concise weather assistant.\n\nThe user is Ada.',
    });
    expect(result.messages[3]?.content).toBe('forecast: sunny in a');
  });

  test('advertises the generated tool schema and the output schema on every request', async () => {
    const model = new TestModel();
    await agentFromClass(new WeatherAgent(), { model }).run('Weather?', { deps: { name: 'Ada' } });
    const definition = compileAgentClass(WeatherAgent);
    for (const request of model.requests) {
      expect(request.tools).toEqual([
        {
          name: 'forecast',
          description: 'Forecast for one city',
          schema: definition.tools[0]?.schema,
        },
      ]);
      expect(request.outputSchema).toEqual(definition.output?.schema);
      expect(request.settings).toEqual({ temperature: 0 });
    }
  });

  test('tool-mode output is answered through the output tool', async () => {
    @Agent()
    @Output(Forecast, { mode: 'tool', name: 'record_weather', description: 'Record the answer' })
    class ToolMode {
      declare readonly [OUTPUT_TYPE]: Forecast;
    }
    const model = new TestModel();

    const result = await agentFromClass(new ToolMode(), { model }).run('Weather?');

    expect(result.output).toBeInstanceOf(Forecast);
    expect(model.requests[0]?.tools).toEqual([
      expect.objectContaining({
        name: 'record_weather',
        description: 'Record the answer',
        output: true,
      }),
    ]);
    expect(model.requests[0]?.outputSchema).toBeUndefined();
    expect(result.messages.at(-1)?.content).toBe('Result recorded.');
  });

  test('streams like any agent', async () => {
    const stream = agentFromClass(new WeatherAgent(), { model: new TestModel() }).runStream(
      'Weather?',
      {
        deps: { name: 'Ada' },
      },
    );
    let deltas = 0;
    for await (const _delta of stream) deltas++;
    expect((await stream.result).output).toBeInstanceOf(Forecast);
    expect(deltas).toBeGreaterThan(0);
  });
});

describe('self-correction with ScriptedModel', () => {
  test('a tool validation failure is corrected within toolRetries', async () => {
    const instance = new WeatherAgent();
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'forecast', args: { city: 'Lagos', days: 9 } }]),
      toolCallResponse([{ id: 'c2', name: 'forecast', args: { city: 'Lagos', days: 2 } }]),
      textResponse('{"city":"Lagos","celsius":31}'),
    ]);

    const result = await agentFromClass(instance, { model }).run('Weather?', {
      deps: { name: 'Ada' },
    });

    expect(result.messages[3]?.content).toBe(
      'Your tool call was rejected: days: must not be greater than 7. Correct the arguments and call the tool again.',
    );
    expect(instance.seen.map((s) => s.args)).toEqual([
      Object.assign(new ForecastArgs(), { city: 'Lagos', days: 2 }),
    ]);
    expect(result.output).toEqual(Object.assign(new Forecast(), { city: 'Lagos', celsius: 31 }));
  });

  test('a tool validation failure beyond toolRetries fails the run at the tool stage', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'forecast', args: {} }]),
      toolCallResponse([{ id: 'c2', name: 'forecast', args: {} }]),
    ]);
    const failure: unknown = await agentFromClass(new WeatherAgent(), { model })
      .run('Weather?', { deps: { name: 'Ada' } })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(RunError.is(failure) && failure.stage).toBe('tool');
    expect(findError(failure, AttemptsExhaustedError.is)).toBeDefined();
  });

  test('an output validation failure is corrected within outputRetries', async () => {
    const model = new ScriptedModel([
      textResponse('{"city":"Lagos","celsius":"31"}'),
      textResponse('{"city":"Lagos","celsius":31,"days":[{"celsius":30}]}'),
    ]);

    const result = await agentFromClass(new WeatherAgent(), { model }).run('Weather?', {
      deps: { name: 'Ada' },
    });

    expect(result.messages[3]?.content).toBe(
      'Your previous response was rejected: celsius: must be an integer number. Correct it and respond again.',
    );
    expect(result.output.days?.[0]).toBeInstanceOf(Day);
    expect(result.output.celsius).toBe(31);
  });

  test('an output validation failure beyond outputRetries fails the run at the decode stage', async () => {
    const model = new ScriptedModel([textResponse('{"city":1}'), textResponse('{"town":"Lagos"}')]);
    await expect(
      agentFromClass(new WeatherAgent(), { model }).run('Weather?', { deps: { name: 'Ada' } }),
    ).rejects.toMatchObject({ kind: 'RunError', stage: 'decode' });
  });

  test('tool-mode output: a rejected output call is corrected and recorded', async () => {
    @Agent({ outputRetries: 1 })
    @Output(Forecast, { mode: 'tool', name: 'record_weather' })
    class ToolMode {
      declare readonly [OUTPUT_TYPE]: Forecast;
    }
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'o1', name: 'record_weather', args: { city: 'Lagos', extra: 1 } }]),
      toolCallResponse([
        { id: 'o2', name: 'record_weather', args: { city: 'Lagos', celsius: 31 } },
      ]),
    ]);

    const result = await agentFromClass(new ToolMode(), { model }).run('Weather?');

    expect(result.messages[2]).toEqual({
      role: 'tool',
      content:
        'Your result was rejected: extra: is not an allowed property. Correct the arguments and call record_weather again.',
      toolCallId: 'o1',
      toolName: 'record_weather',
    });
    expect(result.output).toEqual(Object.assign(new Forecast(), { city: 'Lagos', celsius: 31 }));
  });
});

describe('what @Agent and agentFromClass configure', () => {
  test('@Agent maxIterations bounds the loop', async () => {
    @Agent({ maxIterations: 1 })
    class Short {
      @Tool() ping(): string {
        return 'pong';
      }
    }
    const model = new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'ping' }])]);
    const failure: unknown = await agentFromClass(new Short(), { model })
      .run('x')
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(findError(failure, TurnLimitError.is)).toBeDefined();
  });

  test('tools may return values, rendered as JSON, or nothing', async () => {
    @Agent()
    class Rendering {
      @Tool() data(): { ok: boolean } {
        return { ok: true };
      }
      @Tool() nothing(): void {
        // no result
      }
    }
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'data' },
        { id: 'c2', name: 'nothing' },
      ]),
      textResponse('done'),
    ]);
    const result = await agentFromClass(new Rendering(), { model }).run('x');
    expect(result.messages.slice(2, 4).map((m) => m.content)).toEqual(['{"ok":true}', '']);
  });

  test('extra tools from agentFromClass follow the class tools', async () => {
    const extra = defineTool({ name: 'extra', schema: { type: 'object' }, execute: () => 'x' });
    const model = new TestModel({ callTools: 'none' });
    await agentFromClass(new WeatherAgent(), { model, tools: [extra] }).run('x', {
      deps: { name: 'Ada' },
    });
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['forecast', 'extra']);
  });

  test('approval-gated tools pause a pausable agent and run on the instance once approved', async () => {
    class Transfer {
      @IsInt() @Min(1) cents!: number;
    }
    @Agent({ deferredTools: true })
    class Bank {
      declare readonly [PAUSABLE_TYPE]: true;
      readonly done: number[] = [];
      @Tool({ approval: true }) transfer(args: Transfer, ctx: ToolContext): string {
        this.done.push(args.cents);
        return `sent ${args.cents} (approved: ${ctx.approved})`;
      }
    }
    const instance = new Bank();
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'transfer', args: { cents: 500 } }]),
      textResponse('sent'),
    ]);
    const agent = agentFromClass(instance, { model });

    const paused = await agent.run('pay');
    expect(paused.pending?.approvals.map((p) => p.toolName)).toEqual(['transfer']);
    expect(instance.done).toEqual([]);

    const resumed = await agent.resume(paused.messages, { approvals: { c1: { approved: true } } });
    expect(resumed.output).toBe('sent');
    expect(instance.done).toEqual([500]);
  });

  test('async instructions methods run on the instance, once per run', async () => {
    @Agent()
    class Polite {
      calls = 0;
      constructor(private readonly tone: string) {}
      @Instructions() async style(): Promise<string> {
        await Promise.resolve();
        this.calls++;
        return `Be ${this.tone}.`;
      }
    }
    const instance = new Polite('brief');
    const model = new ScriptedModel([textResponse('a'), textResponse('b')]);
    const agent = agentFromClass(instance, { model });
    await agent.run('x');
    await agent.run('y');
    expect(model.requests[1]?.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(instance.calls).toBe(2);
  });

  test('a NoArgs tool receives its context', async () => {
    @Agent()
    class Clock {
      @Tool() now(_args: NoArgs, ctx: ToolContext): string {
        return ctx.callId;
      }
    }
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c9', name: 'now' }]),
      textResponse('ok'),
    ]);
    const result = await agentFromClass(new Clock(), { model }).run('x');
    expect(result.messages[2]?.content).toBe('c9');
  });
});
