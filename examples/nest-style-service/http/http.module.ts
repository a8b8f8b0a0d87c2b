import { ContainerModule } from 'inversify';
import { HttpServer } from './http-server';

/** The HTTP platform module: the server adapter. */
export const HttpModule = new ContainerModule((options) => {
  options.bind(HttpServer).toSelf().inSingletonScope();
});
