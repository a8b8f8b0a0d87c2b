import { IsInt, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { injectable } from 'inversify';
import type { RunContext } from 'golem';
import { Agent, DEPS_TYPE, Instructions, OUTPUT_TYPE, Output, Tool } from 'golem/decorators';

/** Who asks: the run's deps. */
export interface User {
  name: string;
}

/** The tool's arguments, validated before the method runs. */
export class ForecastArgs {
  @JSONSchema({ examples: ['Lagos'] }) // guides the model (and TestModel's sample)
  @IsString()
  city!: string;
}

/** The agent's output: the final answer is decoded into a validated instance. */
export class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

/** A stand-in for a weather API client, injected into the agent by the container. */
@injectable()
export class WeatherApi {
  celsius(city: string): number {
    return city === 'Lagos' ? 31 : 20;
  }
}

@Agent({ model: 'default', maxIterations: 5 })
@Instructions('You are a concise weather assistant.')
@Output(Forecast)
export class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast; // result.output is a Forecast
  declare readonly [DEPS_TYPE]: User; //       runs pass { deps: User }

  constructor(private readonly api: WeatherApi) {} // injected by the container

  @Instructions()
  user(ctx: RunContext<User>): string {
    return `The user is ${ctx.deps.name}.`;
  }

  @Tool({ description: 'Temperature of a city, in °C' })
  forecast(args: ForecastArgs): Forecast {
    return { city: args.city, celsius: this.api.celsius(args.city) }; // sent to the model as JSON
  }
}
