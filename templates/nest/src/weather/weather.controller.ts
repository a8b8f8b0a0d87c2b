import { Body, Controller, Post } from '@nestjs/common';
import { IsNotEmpty, IsString } from 'class-validator';
import { InjectAgent, type InjectedAgent } from 'golem/nestjs';
import { Forecast, WeatherAgent } from './weather.agent';

/** The request body, checked by the app's ValidationPipe (a 400 when it does not fit). */
export class AskDto {
  @IsString()
  @IsNotEmpty()
  city!: string;
}

@Controller('weather')
export class WeatherController {
  constructor(
    @InjectAgent(WeatherAgent) private readonly weather: InjectedAgent<typeof WeatherAgent>,
  ) {}

  @Post()
  async ask(@Body() body: AskDto): Promise<Forecast> {
    const result = await this.weather.run(`Weather in ${body.city}?`, { deps: { name: 'Ada' } });
    return result.output; // a validated Forecast
  }
}
