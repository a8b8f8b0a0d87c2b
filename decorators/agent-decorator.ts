import type { AgentOptions } from './agent-options';
import type { AnyClass, PausableTypeCheck } from './markers';
import { METADATA_KEYS, writeOwn } from './metadata';

/**
 * Declares a class as an agent. Records `options` only (own metadata under `golem:agent`); the
 * builder (`compileAgentClass`, `agentFromClass`) validates them. A subclass inherits its base's
 * options; its own `@Agent` overrides them option by option.
 *
 * ```ts
 * @Agent({ model: 'default', maxIterations: 5, outputRetries: 2, toolRetries: 2 })
 * class WeatherAgent { ... }
 * ```
 */
export function Agent<const O extends AgentOptions>(
  options?: O,
): <C extends AnyClass>(target: C & PausableTypeCheck<C, O>) => void {
  return (target) => {
    writeOwn(METADATA_KEYS.agent, target, { options: { ...(options ?? {}) } });
  };
}
