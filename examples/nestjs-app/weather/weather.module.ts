import { Module } from '@nestjs/common';
import { GolemModule } from 'golem/nestjs';
import { AlertsAgent } from './alerts.agent';
import { WeatherAgent } from './weather.agent';
import { WeatherController } from './weather.controller';
import { WeatherRepository } from './weather.repository';

/** The feature module: the agents are created here, with this module's repository. */
@Module({
  imports: [GolemModule.forFeature([WeatherAgent, AlertsAgent])],
  providers: [WeatherRepository],
  controllers: [WeatherController],
})
export class WeatherModule {}
