import { Module } from '@nestjs/common';
import { GolemModule } from 'golem/nestjs';
import { detectDefaultModel } from 'golem/providers/resolve';
import { WeatherModule } from './weather/weather.module';

@Module({
  imports: [
    // 'test' (the offline TestModel) unless a provider key is set: OPENAI_API_KEY,
    // ANTHROPIC_API_KEY, GEMINI_API_KEY or GOLEM_LOCAL_BASE_URL.
    GolemModule.forRoot({ defaultModel: detectDefaultModel(process.env) }),
    WeatherModule,
  ],
})
export class AppModule {}
