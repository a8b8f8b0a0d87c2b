/**
 * GolemModule.forFeature creates agent classes in the context of the module that imports it: the
 * constructor gets that module's own (unexported) providers; @InjectAgent and getAgentToken give
 * the same typed engine agent; a module re-exporting the feature shares it.
 */
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Agent as EngineAgent } from 'golem';
import { GolemModule, InjectAgent, getAgentToken, type InjectedAgent } from 'golem/nestjs';
import {
  Forecast,
  WeatherAgent,
  WeatherModule,
  WeatherRepository,
  WeatherService,
} from './fixtures';

@Injectable()
class ReportService {
  constructor(@InjectAgent(WeatherAgent) readonly agent: InjectedAgent<typeof WeatherAgent>) {}
}

@Module({ imports: [WeatherModule], providers: [ReportService] })
class ReportModule {}

async function app(...imports: unknown[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [GolemModule.forRoot({ defaultModel: 'test' }), ...(imports as [])],
  }).compile();
  await moduleRef.init();
  return moduleRef;
}

test("the agent's constructor gets the feature module's private provider, and its tools use it", async () => {
  const moduleRef = await app(WeatherModule);
  const agent = moduleRef.get(WeatherService).agent;
  expect(agent).toBeInstanceOf(EngineAgent);
  const result = await agent.run('Weather in Lagos?', { deps: { name: 'Ada' } });
  expect(result.output).toBeInstanceOf(Forecast);
  expect(result.output).toEqual({ city: 'Lagos', celsius: 31 });
  expect(moduleRef.get(WeatherRepository).calls).toEqual(['Lagos']);
  expect(result.messages[0]?.content).toContain('The user is Ada.');
  await moduleRef.close();
});

test('@InjectAgent and moduleRef.get(getAgentToken(...)) give the same agent, built once', async () => {
  const moduleRef = await app(WeatherModule);
  const token = getAgentToken(WeatherAgent);
  expect(moduleRef.get(token, { strict: false })).toBe(moduleRef.get(WeatherService).agent);
  await moduleRef.close();
});

test('a module importing the feature module (which re-exports forFeature) injects the same agent', async () => {
  const moduleRef = await app(ReportModule);
  expect(moduleRef.get(ReportService).agent).toBe(moduleRef.get(WeatherService).agent);
  await moduleRef.close();
});

test('the repository the agent got is the module singleton, initialised by Nest', async () => {
  const moduleRef = await app(WeatherModule);
  const repository = moduleRef.get(WeatherRepository);
  expect(repository.initialised).toBe(true);
  await moduleRef.get(WeatherService).agent.run('Lagos?', { deps: { name: 'Ada' } });
  expect(repository.calls).toEqual(['Lagos']);
  await moduleRef.close();
});
