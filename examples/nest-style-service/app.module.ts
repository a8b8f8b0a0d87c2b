import { Container, type ContainerModule } from 'inversify';
import { golemModule, type GolemModuleOptions } from 'golem/container';
import { ForecastModule } from './forecast/forecast.module';
import { HttpModule } from './http/http.module';
import { HttpServer } from './http/http-server';
import { WeatherModule } from './weather/weather.module';

/** What the app is configured with: its models (and the environment model strings read). */
export type AppOptions = Pick<GolemModuleOptions, 'defaultModel' | 'models' | 'env'>;

/** The root module (NestJS's `@Module({ imports })`): Golem's models, then the feature modules. */
export function AppModule(options: AppOptions): ContainerModule[] {
  return [golemModule(options), WeatherModule, ForecastModule, HttpModule];
}

/** A running app: its container and its HTTP server. */
export interface App {
  readonly container: Container;
  readonly server: HttpServer;
}

/** `NestFactory.create(AppModule)`: a container with the modules loaded, and the HTTP server. */
export function createApp(modules: readonly ContainerModule[]): App {
  const container = new Container();
  container.load(...modules);
  return { container, server: container.get(HttpServer) };
}
