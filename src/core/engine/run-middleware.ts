import type { Model } from '../contract/model';
import type { Middleware } from './middleware';
import { checkMiddleware, wrapModel } from './middleware-chain';

/**
 * A run's own middleware (`run(prompt, { middleware })`), resolved: wrapped outside the agent's
 * middleware around every model call and tool execution of that run, handoffs included. Internal.
 */
export interface RunMiddleware {
  /** The layers with a `tool` hook, in order (outermost first). */
  readonly tool: readonly Middleware[];
  /** `model` with the run's model layers around it (memoised per model). */
  wrapped(model: Model): Model;
}

/** Checks and resolves a run's `middleware` option; `undefined` when absent or empty. Internal. */
export function runMiddleware(list: unknown): RunMiddleware | undefined {
  if (list === undefined) return undefined;
  const layers = checkMiddleware(list, 'run middleware');
  if (layers.length === 0) return undefined;
  const tool = layers.filter((m) => m.tool !== undefined);
  const wrappedModels = new WeakMap<Model, Model>();
  const hasModelLayer = layers.some(
    (m) => m.request !== undefined || m.generate !== undefined || m.stream !== undefined,
  );
  return {
    tool,
    wrapped(model) {
      if (!hasModelLayer) return model;
      let wrapped = wrappedModels.get(model);
      if (wrapped === undefined) {
        wrapped = wrapModel(model, layers);
        wrappedModels.set(model, wrapped);
      }
      return wrapped;
    },
  };
}
