import { isStreamingModel, type Middleware, type Model } from '../core/index';

/**
 * A run middleware that answers every model call with `model` instead of the agent's own (a
 * replay's or the playground's chosen model): generated calls call `model.generate`, streamed ones
 * `model.stream` (or `generate` when it does not stream). The request the engine built is kept.
 */
export function modelOverride(model: Model): Middleware {
  return {
    name: 'studio-model',
    generate: (call) => model.generate(call.request, call.options),
    stream: (call) =>
      isStreamingModel(model)
        ? model.stream(call.request, call.onDelta, call.options)
        : model.generate(call.request, call.options),
  };
}
