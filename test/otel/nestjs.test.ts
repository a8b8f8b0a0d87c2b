import { Test } from '@nestjs/testing';
import { priceTable } from 'golem';
import { GolemModule } from 'golem/nestjs';
import { otelInstrumentation } from 'golem/otel';
import { WeatherModule, WeatherService } from '../nestjs/fixtures';
import { named, otelHarness, type OtelHarness } from './harness';
import { configErrorOf } from '../support/config-error';

// GolemModule.forRoot({ instrumentation, prices }): every agent forFeature builds is traced and
// priced.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

test('one forRoot option traces and prices the agents of every feature module', async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [
      GolemModule.forRoot({
        defaultModel: 'test',
        instrumentation: otelInstrumentation({ tracerProvider: otel.tracerProvider }),
        prices: priceTable({ test: { input: 1, output: 2 } }),
      }),
      WeatherModule,
    ],
  }).compile();
  await moduleRef.init();
  const result = await moduleRef.get(WeatherService).agent.run('Weather in Lagos?', {
    deps: { name: 'Ada' },
  });
  const [run] = named(otel.spans(), 'invoke_agent WeatherAgent');
  expect(run?.attributes).toMatchObject({
    'gen_ai.operation.name': 'invoke_agent',
    'gen_ai.agent.name': 'WeatherAgent',
    'gen_ai.provider.name': 'test',
  });
  expect(named(otel.spans(), 'execute_tool lagos')).toHaveLength(1);
  expect(result.cost?.currency).toBe('USD');
  expect(result.cost?.unpriced).toBe(0);
  await moduleRef.close();
});

test('invalid observability options are a nestjs ConfigError at forRoot', () => {
  expect(() => GolemModule.forRoot({ instrumentation: {} as never })).toThrow(
    configErrorOf('nestjs'),
  );
  expect(() => GolemModule.forRoot({ prices: 1 as never })).toThrow(/prices must be a price table/);
});
