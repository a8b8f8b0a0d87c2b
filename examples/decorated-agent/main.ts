/**
 * Agents as decorated classes: the tools are methods, their arguments and the output are
 * class-validator DTOs, and the JSON Schemas the model sees come from those classes. Runs offline:
 * TestModel answers from the schemas (the `examples` guide its sample values), then a
 * ScriptedModel shows a rejected tool call corrected within the class's `toolRetries`.
 */
import { JSONSchema } from 'class-validator-jsonschema';
import { ArrayMaxSize, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import type { RunContext, ToolContext } from 'golem';
import {
  Agent,
  DEPS_TYPE,
  Describe,
  Instructions,
  OUTPUT_TYPE,
  Output,
  Tool,
  agentFromClass,
} from 'golem/decorators';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';

/** Who is asking: the run's dependencies. */
interface User {
  name: string;
}

/** The tool's arguments: validated before the method runs. */
class ForecastArgs {
  @Describe('City name, for example "Lagos"')
  @JSONSchema({ examples: ['Lagos'] })
  @IsString()
  @Length(1, 80)
  city!: string;

  @Describe('Days ahead, 0 = today')
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(7)
  days?: number;
}

/** The agent's output: the final answer is decoded into a validated instance. */
class Forecast {
  @Describe('The city') @JSONSchema({ examples: ['Lagos'] }) @IsString() city!: string;

  @Describe('Temperature in °C')
  @JSONSchema({ examples: [31] })
  @IsInt()
  @Min(-90)
  @Max(60)
  celsius!: number;

  @Describe('Conditions, most notable first')
  @JSONSchema({ examples: [['sunny', 'humid']] })
  @IsString({ each: true })
  @ArrayMaxSize(5)
  conditions!: string[];
}

/** A stand-in for a weather service the agent is constructed with. */
class WeatherApi {
  lookup(city: string, days: number): string {
    return `${city} in ${days} day(s): 31°C, sunny and humid`;
  }
}

@Agent({ model: 'default', maxIterations: 5, toolRetries: 2, outputRetries: 2 })
@Instructions('You are a concise weather assistant.')
@Output(Forecast)
class WeatherAgent {
  // Types only (no run-time value): what result.output is and what runs pass as deps.
  declare readonly [OUTPUT_TYPE]: Forecast;
  declare readonly [DEPS_TYPE]: User;

  constructor(private readonly api: WeatherApi) {}

  @Instructions()
  user(ctx: RunContext<User>): string {
    return `The user is ${ctx.deps.name}.`;
  }

  @Tool({ description: 'Forecast for one city', timeout: 5_000 })
  forecast(args: ForecastArgs, _ctx: ToolContext<User>): string {
    return this.api.lookup(args.city, args.days ?? 0);
  }
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // 1. Offline, no script: TestModel calls the tool and answers with values from the schemas.
  const model = new TestModel();
  const agent = agentFromClass(new WeatherAgent(new WeatherApi()), { model });
  const result = await agent.run('Weather in Lagos?', { deps: { name: 'Ada' } });

  const forecast: Forecast = result.output; // typed from the class: no cast, no restating
  log(`${forecast.city}: ${forecast.celsius}°C, ${forecast.conditions.join(' and ')}`);
  log(`output is a Forecast instance: ${String(forecast instanceof Forecast)}`);
  log(`tool schema: ${JSON.stringify(model.requests[0]?.tools[0]?.schema)}`);
  for (const message of result.messages) {
    const calls = message.toolCalls?.map((call) => `${call.name}(${call.args})`).join(', ');
    log(`  ${message.role}: ${(message.content ?? calls ?? '').replace(/\n+/g, ' ')}`);
  }

  // 2. Validation at the boundary: days = 9 breaks @Max(7); the rejection goes back to the model.
  const scripted = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'forecast', args: { city: 'Lagos', days: 9 } }]),
    toolCallResponse([{ id: 'c2', name: 'forecast', args: { city: 'Lagos', days: 2 } }]),
    textResponse('{"city":"Lagos","celsius":30,"conditions":["cloudy"]}'),
  ]);
  const corrected = await agentFromClass(new WeatherAgent(new WeatherApi()), {
    model: scripted,
  }).run('Weather in Lagos in two days?', { deps: { name: 'Ada' } });
  for (const message of corrected.messages.filter((m) => m.role === 'tool')) {
    log(`  tool: ${message.content ?? ''}`);
  }
  log(
    `${corrected.output.city}: ${corrected.output.celsius}°C, ${corrected.output.conditions[0] ?? ''}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
