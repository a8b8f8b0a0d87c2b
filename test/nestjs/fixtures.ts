/** Agents, providers and modules shared by the golem/nestjs tests. */
import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { IsInt, IsString } from 'class-validator';
import type { RunContext } from 'golem';
import {
  Agent,
  DEPS_TYPE,
  Instructions,
  NoArgs,
  OUTPUT_TYPE,
  Output,
  Tool,
} from 'golem/decorators';
import { GolemModule, InjectAgent, type InjectedAgent } from 'golem/nestjs';

export interface User {
  name: string;
}

export class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
}

/** A provider private to `WeatherModule` (not exported). */
@Injectable()
export class WeatherRepository implements OnModuleInit {
  readonly calls: string[] = [];
  initialised = false;

  onModuleInit(): void {
    this.initialised = true;
  }

  celsius(city: string): number {
    this.calls.push(city);
    return city === 'Lagos' ? 31 : 20;
  }
}

@Agent({ model: 'default', maxIterations: 4 })
@Instructions('You are a weather assistant.')
@Output(Forecast)
export class WeatherAgent {
  declare readonly [OUTPUT_TYPE]: Forecast;
  declare readonly [DEPS_TYPE]: User;

  constructor(readonly repository: WeatherRepository) {}

  @Instructions()
  user(ctx: RunContext<User>): string {
    return `The user is ${ctx.deps.name}.`;
  }

  @Tool({ description: 'Temperature in Lagos' })
  lagos(_args: NoArgs): string {
    return JSON.stringify({ city: 'Lagos', celsius: this.repository.celsius('Lagos') });
  }
}

/** Injects the agent into a plain provider of the same module. */
@Injectable()
export class WeatherService {
  constructor(@InjectAgent(WeatherAgent) readonly agent: InjectedAgent<typeof WeatherAgent>) {}
}

export const weatherFeature = GolemModule.forFeature([WeatherAgent]);

@Module({
  imports: [weatherFeature],
  providers: [WeatherRepository, WeatherService],
  exports: [weatherFeature],
})
export class WeatherModule {}
