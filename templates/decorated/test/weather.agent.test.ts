import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { resolveAgent } from 'golem/container';
import { TestModel } from 'golem/testing';
import { createAppContainer } from '../src/container';
import { Forecast, WeatherAgent } from '../src/weather.agent';

test('the agent calls its tool and returns a validated Forecast', async () => {
  const model = new TestModel();
  const agent = resolveAgent(createAppContainer(model), WeatherAgent);
  const result = await agent.run('What is the weather in Lagos?', { deps: { name: 'Ada' } });
  assert.ok(result.output instanceof Forecast);
  assert.deepEqual({ ...result.output }, { city: 'Lagos', celsius: 31 });
  const system = model.requests[0]?.messages.find((message) => message.role === 'system');
  assert.match(system?.content ?? '', /The user is Ada\./);
});
