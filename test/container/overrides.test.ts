/**
 * Overrides: rebinding a model name changes what agents resolved from then on call, in one line;
 * snapshot/restore (inversify's, or `withModelOverrides`) puts the bindings back.
 */
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';
import { modelToken, overrideModel, resolveAgent, withModelOverrides } from 'golem/container';
import { WeatherAgent } from './fixtures/weather';
import { weatherContainer } from './fixtures/setup';
import { configErrorOf } from '../support/config-error';

const ada = { deps: { name: 'Ada' } };

function scripted(city: string): ScriptedModel {
  return new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'forecast', args: { city } }]),
    textResponse(JSON.stringify({ city, celsius: 1 })),
  ]);
}

describe('overrideModel', () => {
  test('changes what a resolved agent calls, and returns the model for assertions', async () => {
    const container = weatherContainer(new TestModel());
    const model = overrideModel(container, 'default', scripted('Oslo'));
    const result = await resolveAgent(container, WeatherAgent).run('Forecast?', ada);
    expect(result.output).toEqual({ city: 'Oslo', celsius: 1 });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.messages[0]?.content).toContain('The user is Ada.');
  });

  test('an agent already resolved keeps its model; resolving again picks the override', async () => {
    const original = new TestModel();
    const container = weatherContainer(original);
    const before = resolveAgent(container, WeatherAgent);
    overrideModel(container, 'default', scripted('Oslo'));
    const after = resolveAgent(container, WeatherAgent);
    expect(after).not.toBe(before);
    expect((await before.run('Forecast?', ada)).output.city).toBe('Lagos');
    expect((await after.run('Forecast?', ada)).output.city).toBe('Oslo');
    expect(original.calls).toBe(2);
  });

  test('binds a name that was not bound', () => {
    const container = weatherContainer(new TestModel());
    const fast = new TestModel({ name: 'fast' });
    overrideModel(container, 'fast', fast);
    expect(container.get(modelToken('fast'))).toBe(fast);
  });

  test('an alias follows an override of its target', () => {
    const fast = new TestModel({ name: 'fast' });
    const container = weatherContainer(new TestModel(), {
      defaultModel: undefined,
      models: { fast, default: 'fast' },
    });
    const replacement = new TestModel({ name: 'replacement' });
    overrideModel(container, 'fast', replacement);
    expect(container.get(modelToken('default'))).toBe(replacement);
  });

  test('takes model strings and factories too', () => {
    const container = weatherContainer(new TestModel());
    overrideModel(container, 'default', 'test:override');
    expect(container.get(modelToken('default')).name).toBe('test:override');
    overrideModel(container, 'default', () => new TestModel({ name: 'made' }));
    expect(container.get(modelToken('default')).name).toBe('made');
  });

  test('an invalid source is rejected before the binding is touched', () => {
    const model = new TestModel();
    const container = weatherContainer(model);
    expect(() => overrideModel(container, 'default', 42 as unknown as TestModel)).toThrow(
      configErrorOf('container'),
    );
    expect(container.get(modelToken('default'))).toBe(model);
  });
});

describe('snapshot and restore', () => {
  test("inversify's snapshot/restore undoes an override", async () => {
    const original = new TestModel();
    const container = weatherContainer(original);
    container.snapshot();
    overrideModel(container, 'default', scripted('Oslo'));
    expect((await resolveAgent(container, WeatherAgent).run('Forecast?', ada)).output.city).toBe(
      'Oslo',
    );
    container.restore();
    expect(container.get(modelToken('default'))).toBe(original);
    expect((await resolveAgent(container, WeatherAgent).run('Forecast?', ada)).output.city).toBe(
      'Lagos',
    );
  });

  test('a lazily built model survives snapshot/restore without being built again', () => {
    let built = 0;
    const container = weatherContainer(new TestModel(), {
      defaultModel: () => {
        built++;
        return new TestModel();
      },
    });
    const first = container.get(modelToken('default'));
    container.snapshot();
    overrideModel(container, 'default', new TestModel());
    container.restore();
    expect(container.get(modelToken('default'))).toBe(first);
    expect(built).toBe(1);
  });

  test('withModelOverrides applies overrides for the callback only', async () => {
    const original = new TestModel();
    const container = weatherContainer(original);
    const inside = await withModelOverrides(
      container,
      { default: scripted('Oslo') },
      async () => (await resolveAgent(container, WeatherAgent).run('Forecast?', ada)).output.city,
    );
    expect(inside).toBe('Oslo');
    expect(container.get(modelToken('default'))).toBe(original);
  });

  test('withModelOverrides restores when the callback throws', async () => {
    const original = new TestModel();
    const container = weatherContainer(original);
    await expect(
      withModelOverrides(container, { default: new TestModel() }, () => {
        throw new Error('test failed');
      }),
    ).rejects.toThrow('test failed');
    expect(container.get(modelToken('default'))).toBe(original);
  });
});
