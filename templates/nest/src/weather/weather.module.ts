import { Module } from '@nestjs/common';
import { GolemModule } from 'golem/nestjs';
import { WeatherController } from './weather.controller';
import { WeatherAgent, WeatherRepository } from './weather.agent';

@Module({
  imports: [GolemModule.forFeature([WeatherAgent])],
  providers: [WeatherRepository],
  controllers: [WeatherController],
})
export class WeatherModule {}
