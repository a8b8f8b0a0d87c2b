import { Module, ValidationPipe } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import type { RunStore } from 'golem';
import { GolemExceptionFilter, GolemModule } from 'golem/nestjs';
import { detectDefaultModel } from 'golem/providers/resolve';
import { memoryStore } from 'golem/stores/memory';
import { sqliteStore } from 'golem/stores/sqlite';
import { APP_ENV, ConfigModule, type AppEnv } from './config.module';
import { WeatherModule } from './weather/weather.module';

/**
 * The run store every agent checkpoints in, paused runs included: a SQLite file when
 * `GOLEM_RUNS_DB` names one (runs survive a restart, and instances on one machine share them),
 * else memory — nothing to set up and nothing left behind, but runs end with the process.
 */
function runStore(path: string | undefined): RunStore {
  return path === undefined || path === '' ? memoryStore() : sqliteStore({ path });
}

@Module({
  imports: [
    ConfigModule.forRoot(),
    // The models, from configuration: a provider when its key is set, else the offline 'test'.
    // The run store, once for every agent: returned by the factory, it is the module's, closed
    // by app.close().
    GolemModule.forRootAsync({
      inject: [APP_ENV],
      useFactory: (env: AppEnv) => ({
        defaultModel: detectDefaultModel(env),
        env,
        store: runStore(env.GOLEM_RUNS_DB),
      }),
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
