import { IsString } from 'class-validator';
import { priceTable } from 'golem';
import { Agent, Tool, agentFromClass } from 'golem/decorators';
import { createGolemContainer, overrideModel, resolveAgent } from 'golem/container';
import { otelInstrumentation } from 'golem/otel';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { named, otelHarness, spanTree, type OtelHarness } from './harness';
import { configErrorOf } from '../support/config-error';

// One option enables tracing for decorated agents (agentFromClass) and a whole container.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

class CityArgs {
  @IsString() city!: string;
}

@Agent({ model: 'default' })
class WeatherAgent {
  @Tool({ description: 'Temperature of a city' })
  forecast(args: CityArgs): string {
    return `${args.city}: 31°C`;
  }
}

const script = () =>
  new ScriptedModel(
    [
      toolCallResponse([{ id: 'c1', name: 'forecast', args: { city: 'Lagos' } }], {
        inputTokens: 100,
        outputTokens: 10,
      }),
      textResponse('31°C', { inputTokens: 120, outputTokens: 5 }),
    ],
    { name: 'openai:gpt-4o-mini' },
  );

const prices = priceTable({ 'gpt-4o-mini': { input: 0.15, output: 0.6 } });

test('agentFromClass({ instrumentation }): spans named after the class', async () => {
  const instrumentation = otelInstrumentation({ tracerProvider: otel.tracerProvider });
  const agent = agentFromClass(new WeatherAgent(), { model: script(), instrumentation, prices });
  const result = await agent.run('Weather in Lagos?');
  expect(spanTree(otel.spans())).toBe(
    [
      'invoke_agent WeatherAgent',
      '  chat gpt-4o-mini',
      '  execute_tool forecast',
      '  chat gpt-4o-mini',
    ].join('\n'),
  );
  expect(
    named(otel.spans(), 'execute_tool forecast')[0]?.attributes['gen_ai.tool.description'],
  ).toBe('Temperature of a city');
  expect(result.cost?.total).toBeCloseTo((220 * 0.15 + 15 * 0.6) / 1e6, 12);
});

test('createGolemContainer({ instrumentation, prices }): every resolved agent is traced and priced', async () => {
  const container = createGolemContainer({
    defaultModel: 'test',
    agents: [WeatherAgent],
    instrumentation: otelInstrumentation({ tracerProvider: otel.tracerProvider }),
    prices,
  });
  overrideModel(container, 'default', script());
  const result = await resolveAgent(container, WeatherAgent).run('Weather in Lagos?');
  expect(named(otel.spans(), 'invoke_agent WeatherAgent')[0]?.attributes).toMatchObject({
    'gen_ai.agent.name': 'WeatherAgent',
    'gen_ai.usage.input_tokens': 220,
    'golem.cost.currency': 'USD',
  });
  expect(result.cost?.unpriced).toBe(0);
  expect(() => createGolemContainer({ instrumentation: {} as never })).toThrow(
    configErrorOf('container'),
  );
  expect(() => createGolemContainer({ prices: 'cheap' as never })).toThrow(
    /prices must be a price table/,
  );
});
