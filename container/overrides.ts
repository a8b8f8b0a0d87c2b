import type { Container } from 'inversify';
import type { Model } from '../src/core/index';
import { applyModelSource } from './model-bindings';
import { checkModelSource, isModel, type ModelSource } from './model-source';
import { checkModelName, modelToken } from './tokens';

/** What the override helpers need of a container. */
export type OverrideTarget = Pick<Container, 'rebind'>;

/**
 * Replaces what the model name `name` is bound to in `container` (binding it if it was not):
 * every agent resolved from then on calls the new model — the one-line test override. An agent
 * object already resolved keeps the model it was built with, so override before resolving (or
 * resolve again). Returns the model when given an instance, so its requests can be asserted.
 *
 * ```ts
 * const model = overrideModel(container, 'default', new ScriptedModel([textResponse('hi')]));
 * await resolveAgent(container, WeatherAgent).run('hello', { deps });
 * expect(model.requests).toHaveLength(1);
 * ```
 */
export function overrideModel<M extends Model>(
  container: OverrideTarget,
  name: string,
  model: M,
): M;
export function overrideModel(container: OverrideTarget, name: string, source: ModelSource): void;
export function overrideModel(
  container: OverrideTarget,
  name: string,
  source: ModelSource,
): Model | undefined {
  checkModelName(name, 'overrideModel');
  checkModelSource(name, source, 'overrideModel');
  applyModelSource(container.rebind(modelToken(name)), name, source, 'overrideModel');
  return isModel(source) ? source : undefined;
}

/**
 * Runs `fn` with model overrides in place, then puts the container back as it was
 * (`container.snapshot()` before, `container.restore()` after, even when `fn` throws). Not for
 * concurrent use on one container: overlapping calls would restore each other's snapshots.
 *
 * ```ts
 * await withModelOverrides(container, { default: new ScriptedModel([...]) }, async () => {
 *   await resolveAgent(container, WeatherAgent).run('…', { deps });
 * });
 * ```
 */
export async function withModelOverrides<R>(
  container: Pick<Container, 'rebind' | 'snapshot' | 'restore'>,
  overrides: Readonly<Record<string, ModelSource>>,
  fn: () => R | Promise<R>,
): Promise<R> {
  container.snapshot();
  try {
    for (const [name, source] of Object.entries(overrides)) overrideModel(container, name, source);
    return await fn();
  } finally {
    container.restore();
  }
}
