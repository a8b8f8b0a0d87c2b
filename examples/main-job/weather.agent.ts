/**
 * The agent of the main job: a decorated class whose collaborator (a weather service) comes from
 * the container by constructor injection. `weatherModule` binds both, so `main.ts` and
 * `golem run examples/main-job/weather.agent.ts WeatherAgent "…"` resolve it the same way.
 */
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { ContainerModule, injectable } from 'inversify';
import type { RunContext } from 'golem';
import { bindAgent } from 'golem/container';
import {
  Agent,
  DEPS_TYPE,
  Describe,
  Instructions,
  OUTPUT_TYPE,
  Output,
  Tool,
} from 'golem/decorators';

/** Who asks: the run's deps. */
export interface Traveller {
  name: string;
}

/** A stand-in for a weather API client (a real one would call a service). */
@injectable()
export class WeatherService {
  private readonly table: Record<string, { celsius: number; conditions: string[] }> = {
    Lagos: { celsius: 31, conditions: ['sunny', 'humid'] },
    Oslo: { celsius: 4, conditions: ['cloudy'] },
  };

  forecast(
    city: string,
    days: number,
  ): { city: string; days: number; celsius: number; conditions: string[] } {
    const reading = this.table[city] ?? { celsius: 20, conditions: ['unknown'] };
    return { city, days, ...reading };
  }
}

/** The tool's arguments, validated before the method runs. */
export class ForecastArgs {
  @Describe('City name, for example "Lagos"')
  @JSONSchema({ examples: ['Lagos'] })
  @IsString()
  @Length(1, 80)
  city!: string;

  @Describe('Days ahead, 0 = today')
  @JSONSchema({ examples: [1] })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(7)
  days?: number;
}

/**
 * The agent's output: the final answer is decoded into a validated instance. Offline, TestModel
 * fills `city` and `celsius` from the tool's result and `summary` from its example.
 */
export class Forecast {
  @Describe('The city') @IsString() city!: string;

  @Describe('Temperature in °C')
  @IsInt()
  @Min(-90)
  @Max(60)
  celsius!: number;

  @Describe('One sentence for the traveller')
  @JSONSchema({ examples: ['Sunny and humid: take water.'] })
  @IsString()
  @Length(1, 200)
  summary!: string;
}

@Agent({ model: 'default', maxIterations: 5, toolRetries: 2, outputRetries: 2 })
@Instructions('You are a concise weather assistant. Call the forecast tool, then answer.')
@Output(Forecast)
export class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast;
  declare readonly [DEPS_TYPE]: Traveller;

  /** Injected by the container from the parameter's type (no `@injectable()` needed here). */
  constructor(private readonly weather: WeatherService) {}

  @Instructions()
  traveller(ctx: RunContext<Traveller>): string {
    return `The traveller is ${ctx.deps.name}.`;
  }

  @Tool({ description: 'Forecast for one city' })
  forecast(args: ForecastArgs): ReturnType<WeatherService['forecast']> {
    return this.weather.forecast(args.city, args.days ?? 0);
  }
}

/** Binds the service and the agent: load it into any container (`golem run` loads it too). */
export const weatherModule = new ContainerModule((options) => {
  options.bind(WeatherService).toSelf().inSingletonScope();
  bindAgent(options, WeatherAgent);
});
