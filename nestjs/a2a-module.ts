import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { isRecord } from '../src/core/kit/guards';
import { nestError } from './errors';
import { a2aController } from './a2a-controller';
import { A2A_OPTIONS, A2AServerHost } from './a2a-host';
import {
  checkA2AOptions,
  checkPath,
  type A2AModuleAsyncOptions,
  type A2AModuleOptions,
} from './a2a-options';
import { A2A_SERVER } from './a2a-token';

function a2aModule(
  route: string,
  options: Provider,
  imports: NonNullable<DynamicModule['imports']>,
): DynamicModule {
  return {
    module: A2AModule,
    global: true,
    imports,
    controllers: [a2aController(route)],
    providers: [
      options,
      A2AServerHost,
      {
        provide: A2A_SERVER,
        inject: [A2AServerHost],
        useFactory: (host: A2AServerHost) => host.facade,
      },
    ],
    exports: [A2A_SERVER],
  };
}

/**
 * Serves agents over the Agent2Agent protocol (A2A 1.0, JSON-RPC binding) from a NestJS
 * application (Express platform):
 *
 * ```ts no-check
 * @Module({
 *   imports: [
 *     GolemModule.forRoot({ defaultModel: 'openai:gpt-4o-mini' }),
 *     GolemModule.forFeature([WeatherAgent]),
 *     A2AModule.forRoot({ agents: WeatherAgent, url: 'https://agents.example.com/a2a' }),
 *   ],
 * })
 * class AppModule {}
 * ```
 *
 * A controller at `path` (default `a2a`) hands each request to `createA2AServer` from
 * `golem/a2a`: `SendMessage`, `SendStreamingMessage` (SSE), `GetTask`, `CancelTask`,
 * `SubscribeToTask`, with the card at `<path>/.well-known/agent-card.json` (and, for one agent,
 * `/.well-known/agent-card.json`). `@Agent` classes are those registered with
 * `GolemModule.forFeature` anywhere in the application, resolved when the module initialises
 * (request-scoped ones are built per run). The card names `url`, the public URL. Nest's JSON body
 * parser may have read the body first: it is reused (the raw bytes with
 * `NestFactory.create(AppModule, { rawBody: true })`), and Nest's parser limit (100 kB unless
 * raised with `app.useBodyParser('json', { limit })`) then applies before `maxBodyBytes`. On
 * module destroy (`app.close()`) every running task is canceled. `@InjectA2AServer()` (token
 * `A2A_SERVER`) gives the server, e.g. to read its card. Global; one per application.
 */
@Module({})
export class A2AModule {
  /** The module serving `options.agents` (checked eagerly: `invalid-options`, `not-an-agent`). */
  static forRoot(options: A2AModuleOptions): DynamicModule {
    const checked = checkA2AOptions(options, 'A2AModule.forRoot');
    return a2aModule(checked.route, { provide: A2A_OPTIONS, useValue: checked }, []);
  }

  /**
   * `forRoot` with options from a Nest factory provider, checked when it resolves; the route
   * (`path`) is given here, since the controller is made now: `A2AModule.forRootAsync({ imports:
   * [ConfigModule], inject: [ConfigService], useFactory: (config: ConfigService) => ({ agents:
   * WeatherAgent, url: config.get('A2A_URL') }) })`.
   */
  static forRootAsync(options: A2AModuleAsyncOptions): DynamicModule {
    const where = 'A2AModule.forRootAsync';
    if (!isRecord(options) || typeof options.useFactory !== 'function')
      throw nestError(`${where}: useFactory must be a function`, { reason: 'invalid-options' });
    const route = checkPath(options.path, where);
    const factory = options.useFactory as (...args: unknown[]) => unknown;
    return a2aModule(
      route,
      {
        provide: A2A_OPTIONS,
        inject: [...(options.inject ?? [])],
        useFactory: async (...args: unknown[]) =>
          checkA2AOptions(await factory(...args), where, options.path ?? 'a2a'),
      },
      options.imports ?? [],
    );
  }
}
