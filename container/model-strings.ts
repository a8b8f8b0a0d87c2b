import type { TestModelFactory } from '../src/providers/resolve/index';
import { ModelStrings, type ModelStringSettings } from '../src/providers/resolve/wiring';
import { TestModel } from '../src/testing/index';
import { containerFail } from './errors';

export type { ModelStringSettings } from '../src/providers/resolve/wiring';
export { ModelStrings } from '../src/providers/resolve/wiring';

/** The container's service token for its {@link ModelStrings}. */
export const MODEL_STRINGS: unique symbol = Symbol.for('golem.container.modelStrings');

const defaultTestModel: TestModelFactory = (name) => new TestModel({ name });

/**
 * One container's model-string resolver: `resolveModel` with the container's environment and
 * options, each string resolved once (the adapter is kept); its failures are `model-failed`
 * container `ConfigError`s. Bound by `golemModule`.
 */
export function containerModelStrings(settings: ModelStringSettings = {}): ModelStrings {
  return new ModelStrings(settings, { testModel: defaultTestModel, fail: containerFail });
}

let fallback: ModelStrings | undefined;

/** The resolver of a container without `golemModule`: `process.env` and the default `TestModel`. */
export function defaultModelStrings(): ModelStrings {
  fallback ??= containerModelStrings();
  return fallback;
}
