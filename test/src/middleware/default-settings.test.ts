import { Agent, ConfigError, type ModelRequest } from 'golem';
import { FunctionModel, textResponse } from 'golem/testing';
import { defaultSettings } from 'golem/middleware';

function recorder(): { model: FunctionModel; seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  const model = new FunctionModel((request) => {
    seen.push(request);
    return textResponse('ok');
  });
  return { model, seen };
}

describe('defaultSettings', () => {
  test('fills settings the request lacks; the agent and run settings win', async () => {
    const { model, seen } = recorder();
    const agent = new Agent({
      model,
      modelSettings: { temperature: 0.7 },
      middleware: [defaultSettings({ temperature: 0, maxTokens: 256, seed: 7 })],
    });
    await agent.run('hi');
    await agent.run('again', { modelSettings: { seed: 1 } });
    expect(seen[0]?.settings).toEqual({ temperature: 0.7, maxTokens: 256, seed: 7 });
    expect(seen[1]?.settings).toEqual({ temperature: 0.7, maxTokens: 256, seed: 1 });
  });

  test('a request without settings gets the defaults', async () => {
    const { model, seen } = recorder();
    const agent = new Agent({ model, middleware: [defaultSettings({ topP: 0.5, stop: ['END'] })] });
    await agent.run('hi');
    expect(seen[0]?.settings).toEqual({ topP: 0.5, stop: ['END'] });
  });

  test('thinking, cache and extraBody merge one level deep; stop and booleans replace whole', async () => {
    const { model, seen } = recorder();
    const agent = new Agent({
      model,
      modelSettings: {
        stop: ['X'],
        thinking: { mode: 'enabled', budgetTokens: 2000 },
        extraBody: { user: 'u1' },
        cache: false,
      },
      middleware: [
        defaultSettings({
          stop: ['END', 'STOP'],
          thinking: { mode: 'adaptive', includeThoughts: true },
          extraBody: { metadata: { app: 'a' }, user: 'default' },
          cache: { ttl: '1h' },
        }),
      ],
    });
    await agent.run('hi');
    expect(seen[0]?.settings).toEqual({
      stop: ['X'],
      thinking: { mode: 'enabled', budgetTokens: 2000, includeThoughts: true },
      extraBody: { metadata: { app: 'a' }, user: 'u1' },
      cache: false,
    });
  });

  test('an undefined request setting counts as unset; the run keeps its own settings', async () => {
    const { model, seen } = recorder();
    const agent = new Agent({
      model,
      middleware: [defaultSettings({ temperature: 0.2 })],
    });
    const result = await agent.run('hi', {
      modelSettings: { temperature: undefined, maxTokens: 9 },
    });
    expect(seen[0]?.settings).toEqual({ temperature: 0.2, maxTokens: 9 });
    expect(result.output).toBe('ok');
  });

  test('the defaults object is copied: later changes do not leak into requests', async () => {
    const { model, seen } = recorder();
    const settings = { temperature: 0 };
    const agent = new Agent({ model, middleware: [defaultSettings(settings)] });
    settings.temperature = 1;
    await agent.run('hi');
    expect(seen[0]?.settings).toEqual({ temperature: 0 });
  });

  test('settings must be an object', () => {
    expect(() => defaultSettings(null as never)).toThrow(ConfigError);
    expect(() => defaultSettings('x' as never)).toThrow(/defaultSettings needs an object/);
  });
});
