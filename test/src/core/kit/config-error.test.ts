/**
 * One `ConfigError` for every configuration or installation mistake (ADR 0005 §6): `component`
 * says where, `reason` what; `ConfigError.is(e, component?, reason?)` checks all three across
 * package copies and never throws; `hasKind` is public; `brandGuard` builds the classes' `is`.
 */
import { ConfigError, GolemError, RunError, hasKind, isRetryable } from 'golem';
import { brandGuard } from '../../../../src/core/kit/error-base';

type ConfigErrors = typeof import('../../../../src/core/kit/config-error');

describe('ConfigError', () => {
  test('component is required, reason defaults to invalid-option, kind and name are ConfigError', () => {
    const error = new ConfigError('Agent `maxIterations` must be an integer >= 1, got 0', {
      component: 'agent',
    });
    expect(error).toBeInstanceOf(GolemError);
    expect([error.kind, error.name, error.component, error.reason]).toEqual([
      'ConfigError',
      'ConfigError',
      'agent',
      'invalid-option',
    ]);
    expect(error.message).toBe('Agent `maxIterations` must be an integer >= 1, got 0');
    expect(isRetryable(error)).toBe(false);
  });

  test('detail fields are set only when given; cause is kept', () => {
    const cause = new Error('boom');
    const error = new ConfigError('openai: `apiKey` is required', {
      component: 'model',
      provider: 'openai',
      option: undefined,
      cause,
    });
    expect(error.provider).toBe('openai');
    expect(error.cause).toBe(cause);
    expect(Object.keys(error).sort()).toEqual(['component', 'kind', 'name', 'provider', 'reason']);
    expect('option' in error).toBe(false);
    expect('cause' in new ConfigError('x', { component: 'ui' })).toBe(false);
  });

  test('is() narrows by component and reason', () => {
    const peer = new ConfigError('golem/otel needs the package @opentelemetry/api', {
      component: 'peers',
      reason: 'missing-peer',
      packages: ['@opentelemetry/api'],
    });
    expect(ConfigError.is(peer)).toBe(true);
    expect(ConfigError.is(peer, 'peers')).toBe(true);
    expect(ConfigError.is(peer, 'peers', 'missing-peer')).toBe(true);
    expect(ConfigError.is(peer, undefined, 'missing-peer')).toBe(true);
    expect(ConfigError.is(peer, 'agent')).toBe(false);
    expect(ConfigError.is(peer, 'peers', 'invalid-option')).toBe(false);
    expect(ConfigError.is(new RunError('model', new Error('x')))).toBe(false);
    expect(ConfigError.is(new Error('x'))).toBe(false);
  });

  test('is() recognises an error from another copy of the package and never throws', () => {
    let copy: ConfigErrors | undefined;
    jest.isolateModules(() => {
      copy = jest.requireActual<ConfigErrors>('../../../../src/core/kit/config-error');
    });
    if (copy === undefined) throw new Error('module copy not loaded');
    const foreign = new copy.ConfigError('x', { component: 'mcp', reason: 'tool-collision' });
    expect(copy.ConfigError).not.toBe(ConfigError);
    expect(foreign instanceof ConfigError).toBe(false);
    expect(ConfigError.is(foreign, 'mcp', 'tool-collision')).toBe(true);

    const hostile = new Proxy(new ConfigError('x', { component: 'agent' }), {
      get(target, key) {
        if (key === 'component' || key === 'reason') throw new Error('hostile getter');
        return Reflect.get(target, key) as unknown;
      },
    });
    expect(ConfigError.is(hostile)).toBe(true);
    expect(ConfigError.is(hostile, 'agent')).toBe(false);
    expect(ConfigError.is(null, 'agent')).toBe(false);
    expect(ConfigError.is({ component: 'agent', reason: 'invalid-option' }, 'agent')).toBe(false);
  });
});

describe('hasKind and brandGuard', () => {
  test('hasKind is exported from golem and checks the brand of any Golem error', () => {
    const error = new RunError('tool', new Error('x'));
    expect(hasKind(error, 'RunError')).toBe(true);
    expect(hasKind(error, 'ConfigError')).toBe(false);
    expect(hasKind({ kind: 'RunError' }, 'RunError')).toBe(false);
    expect(hasKind(undefined, 'RunError')).toBe(false);
  });

  test('brandGuard builds a class check that works across copies', () => {
    class PlainError extends GolemError {
      constructor() {
        super('PlainError', 'plain');
      }
      static readonly is = brandGuard<PlainError>('PlainError');
    }
    expect(PlainError.is(new PlainError())).toBe(true);
    expect(PlainError.is(new ConfigError('x', { component: 'agent' }))).toBe(false);
    expect(RunError.is(new RunError('loop', new Error('x')))).toBe(true);
    expect(RunError.is(Object.create(null))).toBe(false);
  });
});
