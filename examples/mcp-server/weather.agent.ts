/**
 * A decorated agent whose `@Tool` methods are served over MCP by main.ts and by
 * `golem mcp serve examples/mcp-server/weather.agent.ts WeatherAgent`.
 */
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { Agent, Describe, Instructions, Tool } from 'golem/decorators';

/** The arguments of `forecast`: validated into this class before the method runs. */
export class ForecastArgs {
  @Describe('City name, for example "Lagos"')
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

/** Answers weather questions with its forecast tool. */
@Agent({ model: 'test', maxIterations: 4 })
@Instructions('You are a concise weather assistant.')
export class WeatherAgent {
  @Tool({ description: 'Temperature of a city in °C, today or up to 7 days ahead' })
  forecast(args: ForecastArgs): string {
    const base = args.city === 'Lagos' ? 31 : 18;
    return `${args.city}: ${base - (args.days ?? 0)}°C`;
  }
}
