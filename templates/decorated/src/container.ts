import { createGolemContainer, type ModelSource } from 'golem/container';
import { WeatherAgent, WeatherApi } from './weather.agent';

/** The app's container: the model bound as 'default', the agent and its service. */
export function createAppContainer(defaultModel: ModelSource) {
  const container = createGolemContainer({ defaultModel, agents: [WeatherAgent] });
  container.bind(WeatherApi).toSelf().inSingletonScope();
  return container;
}
