import { Injectable } from '@nestjs/common';
import { IsInt, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { RunContext } from 'golem';
import { Agent, DEPS_TYPE, Instructions, OUTPUT_TYPE, Output, Tool } from 'golem/decorators';

/** Who asks: the run's deps. */
export interface User {
  name: string;
}

/** The tool's arguments, validated before the method runs. */
export class CityArgs {
  @JSONSchema({ examples: ['Lagos'] }) // guides the model (and TestModel's sample)
  @IsString()
  city!: string;
}

/** The agent's output: the final answer is decoded into a validated instance. */
export class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

/** A stand-in for a weather API client: a provider of WeatherModule. */
@Injectable()
export class WeatherRepository {
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

  constructor(private readonly repository: WeatherRepository) {} // WeatherModule's provider

  @Instructions()
  user(ctx: RunContext<User>): string {
    return `The user is ${ctx.deps.name}.`;
  }

  @Tool({ description: 'Temperature of a city, in °C' })
  forecast(args: CityArgs): Forecast {
    return { city: args.city, celsius: this.repository.celsius(args.city) };
  }
}
