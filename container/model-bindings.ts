import type { Bind, BindToFluentSyntax, ResolutionContext, ServiceIdentifier } from 'inversify';
import type { Model } from '../src/core/index';
import { checkFactoryModel, factoryFailure } from '../src/providers/resolve/wiring';
import { containerError, containerFail, isContainerError } from './errors';
import {
  checkModelSource,
  isModelString,
  type CheckedSource,
  type ModelFactory,
  type ModelFactoryContext,
  type ModelSource,
} from './model-source';
import { defaultModelStrings, MODEL_STRINGS, type ModelStrings } from './model-strings';
import { checkModelName, modelToken } from './tokens';

/** Anything with inversify's `bind`: a `Container`, or a `ContainerModule`'s load options. */
export interface Binder {
  readonly bind: Bind;
}

/**
 * Binds the model name `name` to `source` (a model, a factory, a model string or another
 * binding's name; see {@link ModelSource}). Factories and model strings are built lazily, the
 * first time an agent needs them, and kept. Use it in your own `ContainerModule`s next to
 * `golemModule`; to replace an existing binding use `overrideModel`.
 *
 * ```ts
 * new ContainerModule((options) => bindModel(options, 'fast', 'anthropic:claude-haiku-4-5'));
 * ```
 */
export function bindModel(binder: Binder, name: string, source: ModelSource): void {
  checkModelName(name, 'bindModel');
  applyModelSource(binder.bind(modelToken(name)), name, source, 'bindModel');
}

/** Completes a `bind`/`rebind` of the token of `name` with `source`. */
export function applyModelSource(
  syntax: BindToFluentSyntax<Model>,
  name: string,
  source: unknown,
  where: string,
): void {
  applyChecked(syntax, name, checkModelSource(name, source, where));
}

/** Completes a `bind`/`rebind` of the token of `name` with a checked source. */
export function applyChecked(
  syntax: BindToFluentSyntax<Model>,
  name: string,
  checked: CheckedSource,
): void {
  switch (checked.kind) {
    case 'instance':
      syntax.toConstantValue(checked.model);
      return;
    case 'alias':
      syntax.toDynamicValue((ctx) => modelFor(ctx, checked.target)).inTransientScope();
      return;
    case 'spec':
      syntax
        .toDynamicValue((ctx) => modelStringsOf(ctx).resolve(checked.spec, name))
        .inSingletonScope();
      return;
    case 'factory':
      syntax.toDynamicValue((ctx) => runFactory(ctx, name, checked.factory)).inSingletonScope();
      return;
  }
}

/** The container's model-string resolver (`golemModule`'s), or the process-wide default. */
export function modelStringsOf(ctx: ResolutionContext): ModelStrings {
  return ctx.get<ModelStrings>(MODEL_STRINGS, { optional: true }) ?? defaultModelStrings();
}

/**
 * The model bound to `name`; an unbound name that is a model string resolves by itself (unless
 * the container's `resolveModelStrings` is off). Throws `unbound-model` naming the fix.
 */
export function modelFor(ctx: ResolutionContext, name: string): Model {
  const bound = boundModel(ctx, name);
  if (bound !== undefined) return bound;
  const strings = modelStringsOf(ctx);
  const spec = isModelString(name);
  if (spec && strings.resolveUnbound) return strings.resolve(name);
  throw containerError(unboundMessage(name, spec), { reason: 'unbound-model', model: name });
}

/**
 * The model bound to `name`, or `undefined`. In an `autobind` container inversify instantiates
 * the token of an unbound name, which throws `unbound-model`: that counts as unbound too.
 */
export function boundModel(ctx: Pick<ResolutionContext, 'get'>, name: string): Model | undefined {
  try {
    return ctx.get(modelToken(name), { optional: true });
  } catch (error) {
    if (isContainerError(error) && error.reason === 'unbound-model' && error.model === name)
      return undefined;
    throw error;
  }
}

function unboundMessage(name: string, spec: boolean): string {
  const quoted = `'${name.replace(/'/g, "\\'")}'`;
  const head = spec
    ? `no model is bound to "${name}", and this container resolves only bound names (resolveModelStrings: false)`
    : `no model is bound to "${name}"`;
  const module =
    name === 'default'
      ? "golemModule({ defaultModel: 'openai:gpt-4o-mini' }) (or detectDefaultModel(process.env))"
      : `golemModule({ models: { ${JSON.stringify(name)}: 'openai:gpt-4o-mini' } })`;
  return `${head}; bind it with ${module} or bindModel(container, ${quoted}, model), or in a test overrideModel(container, ${quoted}, new TestModel())`;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function runFactory(ctx: ResolutionContext, name: string, factory: ModelFactory): Model {
  const strings = modelStringsOf(ctx);
  const context: ModelFactoryContext = {
    name,
    env: strings.env,
    resolve: (spec) => strings.resolve(spec, name),
    get: <T>(token: ServiceIdentifier<T>) => ctx.get<T>(token),
  };
  let value: unknown;
  try {
    value = factory(context);
  } catch (error) {
    if (isContainerError(error)) throw error;
    throw factoryFailure(name, error, containerFail);
  }
  if (isThenable(value)) {
    Promise.resolve(value).catch(() => undefined);
    throw containerError(
      `the model factory bound to "${name}" returned a Promise; return the model itself (adapters are built synchronously; do async setup before creating the container)`,
      { reason: 'invalid-model', model: name },
    );
  }
  return checkFactoryModel(name, value, containerFail);
}
