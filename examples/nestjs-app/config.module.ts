import { Global, Module, type DynamicModule } from '@nestjs/common';

/** The environment the app reads (keys and endpoints); a test overrides it. */
export const APP_ENV = Symbol('APP_ENV');

/** The variables the app reads. */
export type AppEnv = Readonly<Record<string, string | undefined>>;

/** A small configuration module, in the role `@nestjs/config` plays in most apps. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(env: AppEnv = process.env): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: APP_ENV, useValue: env }],
      exports: [APP_ENV],
    };
  }
}
