/** A model's provider id and model id, as adapters name models (`provider:model`). */
export interface ModelRef {
  /** The adapter's provider id (`openai`, `anthropic`, `gemini`, `bedrock`, a preset…), when known. */
  readonly provider: string | undefined;
  /** The model id (`gpt-4o-mini`, a Bedrock model id, an Azure deployment…). */
  readonly model: string;
}

/**
 * Splits a `Model.name` into provider and model at the first `:` (adapters name themselves
 * `provider:model`). A name without `:` is a model id of an unknown provider; an absent or empty
 * name is the model `unknown`.
 */
export function modelRef(name: string | undefined): ModelRef {
  if (typeof name !== 'string' || name === '') return { provider: undefined, model: 'unknown' };
  const colon = name.indexOf(':');
  if (colon <= 0 || colon === name.length - 1) return { provider: undefined, model: name };
  return { provider: name.slice(0, colon), model: name.slice(colon + 1) };
}
