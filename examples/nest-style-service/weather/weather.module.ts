import { ContainerModule } from 'inversify';
import { bindAgent } from 'golem/container';
import { WeatherAgent } from './weather.agent';
import { WeatherService } from './weather.service';

/** The weather feature module: its provider and its agent (as `@Module({ providers })` would). */
export const WeatherModule = new ContainerModule((options) => {
  options.bind(WeatherService).toSelf().inSingletonScope();
  bindAgent(options, WeatherAgent);
});
