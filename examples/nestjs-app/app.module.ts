import { Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { GolemExceptionFilter, GolemModule } from 'golem/nestjs';
import { detectDefaultModel } from 'golem/providers/resolve';
import { APP_ENV, ConfigModule, type AppEnv } from './config.module';
import { WeatherModule } from './weather/weather.module';

@Module({
  imports: [
    ConfigModule.forRoot(),
    // The models, from configuration: a provider when its key is set, else the offline 'test'.
    GolemModule.forRootAsync({
      inject: [APP_ENV],
      useFactory: (env: AppEnv) => ({ defaultModel: detectDefaultModel(env), env }),
    }),
    WeatherModule,
  ],
  providers: [
    {
      provide: APP_PIPE,
      useValue: new ValidationPipe({
        whitelist: true,
        forbidNonWhitelisted: true,
        transform: true,
      }),
    },
    { provide: APP_FILTER, useClass: GolemExceptionFilter }, // a failed run: 502 with its stage
  ],
})
export class AppModule {}
