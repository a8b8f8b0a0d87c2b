import { ContainerModule } from 'inversify';
import { ForecastController } from './forecast.controller';

/** The forecast feature module: its controller. */
export const ForecastModule = new ContainerModule((options) => {
  options.bind(ForecastController).toSelf().inSingletonScope();
});
