import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { RunContext } from 'golem';
import {
  Agent,
  DEPS_TYPE,
  Describe,
  Instructions,
  OUTPUT_TYPE,
  Output,
  Tool,
} from 'golem/decorators';
import { WeatherRepository, type Reading } from './weather.repository';

/** Who asks: per-request data, passed in the run's deps (never stored on the agent). */
export interface Traveller {
  name: string;
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

/** The typed result the endpoint returns. */
export class Forecast {
  @Describe('The city') @JSONSchema({ examples: ['Lagos'] }) @IsString() city!: string;

  @Describe('Temperature in °C') @JSONSchema({ examples: [31] }) @IsInt() celsius!: number;

  @Describe('One sentence for the traveller')
  @JSONSchema({ examples: ['Hot: take water.'] })
  @IsString()
  summary!: string;
}

/** A decorated agent; Nest injects the feature module's repository into its constructor. */
@Agent({ model: 'default', maxIterations: 5, toolRetries: 2, outputRetries: 2 })
@Instructions('You are a concise weather assistant. Call the forecast tool, then answer.')
@Output(Forecast)
export class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast;
  declare readonly [DEPS_TYPE]: Traveller;

  constructor(private readonly repository: WeatherRepository) {}

  @Instructions()
  traveller(ctx: RunContext<Traveller>): string {
    return `The traveller is ${ctx.deps.name}.`;
  }

  @Tool({ description: 'Forecast for one city' })
  forecast(args: ForecastArgs): Reading {
    return this.repository.forecast(args.city, args.days ?? 0);
  }
}
