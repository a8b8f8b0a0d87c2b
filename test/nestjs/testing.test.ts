/**
 * Swapping models in Nest tests without touching agent classes: overrideProvider on
 * getModelToken(name), the overrideModels helper, GolemTestingModule (offline root), and
 * overriding an agent itself with getAgentToken.
 */
import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Agent } from 'golem/decorators';
import {
  GolemModule,
  GolemTestingModule,
  getAgentToken,
  getModelToken,
  overrideModels,
} from 'golem/nestjs';
import { ScriptedModel, TestModel, textResponse } from 'golem/testing';
import { WeatherAgent, WeatherModule, WeatherService } from './fixtures';
import { ConfigError } from 'golem';

const answer = () => new ScriptedModel([textResponse('{"city":"Oslo","celsius":4}')]);

test("overrideProvider(getModelToken('default')) swaps the model every agent using it calls", async () => {
  const model = answer();
  const moduleRef = await Test.createTestingModule({
    imports: [GolemModule.forRoot({ defaultModel: 'test' }), WeatherModule],
  })
    .overrideProvider(getModelToken('default'))
    .useValue(model)
    .compile();
  const result = await moduleRef.get(WeatherService).agent.run('Oslo?', { deps: { name: 'Ada' } });
  expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
  expect(model.requests).toHaveLength(1);
  expect(model.requests[0]?.messages[0]?.content).toContain('The user is Ada.');
});

test('overrideModels overrides several names in one call', async () => {
  @Agent({ model: 'fast' })
  class FastAgent {}
  @Module({ imports: [GolemModule.forFeature([FastAgent])] })
  class FastModule {}
  const fast = new ScriptedModel([textResponse('quick')]);
  const moduleRef = await overrideModels(
    Test.createTestingModule({
      imports: [
        GolemModule.forRoot({ defaultModel: 'test', models: { fast: 'test' } }),
        WeatherModule,
        FastModule,
      ],
    }),
    { default: answer(), fast },
  ).compile();
  const weather = await moduleRef.get(WeatherService).agent.run('?', { deps: { name: 'Ada' } });
  expect(weather.output.city).toBe('Oslo');
  const quick = await moduleRef.get(getAgentToken(FastAgent), { strict: false }).run('?');
  expect(quick.output).toBe('quick');
});

test('GolemTestingModule binds default to the offline TestModel and reads no environment', async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [GolemTestingModule.forRoot(), WeatherModule],
  }).compile();
  expect(moduleRef.get(getModelToken('default'), { strict: false })).toBeInstanceOf(TestModel);

  const saved = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = 'sk-from-the-environment';
  try {
    @Agent({ model: 'openai:gpt-4o-mini' })
    class ProviderAgent {}
    @Module({ imports: [GolemModule.forFeature([ProviderAgent])] })
    class ProviderModule {}
    const error: unknown = await Test.createTestingModule({
      imports: [GolemTestingModule.forRoot(), ProviderModule],
    })
      .compile()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(ConfigError.is(error, 'nestjs') && error.reason).toBe('unbound-model');
  } finally {
    if (saved === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = saved;
  }
});

test('GolemTestingModule takes scripted models, which aliases follow', async () => {
  @Agent({ model: 'fast' })
  class AliasAgent {}
  @Module({ imports: [GolemModule.forFeature([AliasAgent])] })
  class AliasModule {}
  const model = new ScriptedModel([textResponse('via the alias')]);
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemTestingModule.forRoot({ defaultModel: model, models: { fast: 'default' } }),
      AliasModule,
    ],
  }).compile();
  const result = await moduleRef.get(getAgentToken(AliasAgent), { strict: false }).run('?');
  expect(result.output).toBe('via the alias');
});

test('overrideProvider(getAgentToken(X)) replaces the agent wherever @InjectAgent(X) injects it', async () => {
  const fake = { run: () => Promise.resolve({ output: { city: 'Fake', celsius: 0 } }) };
  const moduleRef = await Test.createTestingModule({
    imports: [GolemTestingModule.forRoot(), WeatherModule],
  })
    .overrideProvider(getAgentToken(WeatherAgent))
    .useValue(fake)
    .compile();
  expect(moduleRef.get(WeatherService).agent).toBe(fake);
});
