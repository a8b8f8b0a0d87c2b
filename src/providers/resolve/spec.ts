import type { ModelResolutionInit } from './errors';
import { EXAMPLE_MODELS, KNOWN_PROVIDERS, isProviderName, type ProviderName } from './providers';
import { closestProvider, providerForModelId } from './suggest';

/** A parsed model string: the provider and the model id as written (`''` for a bare `test`). */
export interface ModelSpec {
  readonly provider: ProviderName;
  readonly model: string;
}

/** Why a string is not a usable model string: the message and the error details. */
export interface SpecProblem {
  readonly message: string;
  readonly init: ModelResolutionInit;
}

const SHOWN_LENGTH = 100;
const INVALID_MODEL_CHAR = /[\s\p{Cc}]/u;

/** A string for messages: JSON-quoted, cut at 100 characters. */
export function quote(text: string): string {
  const cut = text.length > SHOWN_LENGTH ? `${text.slice(0, SHOWN_LENGTH)}…` : text;
  return JSON.stringify(cut);
}

function example(provider: string): string {
  if (provider === 'test') return '"test" (or "test:<label>")';
  return `"${provider}:${EXAMPLE_MODELS[provider] ?? '<model>'}"`;
}

const FORMAT = 'write "<provider>:<model>", e.g. "openai:gpt-4o-mini"';

function knownList(): string {
  return `known providers: ${KNOWN_PROVIDERS.join(', ')}`;
}

function malformed(message: string, extra: Partial<ModelResolutionInit> = {}): SpecProblem {
  return { message, init: { reason: 'malformed', ...extra } };
}

/**
 * Splits `spec` into provider and model at the first `:` (the model keeps any later colons, as
 * Bedrock ids need: `bedrock:us.amazon.nova-micro-v1:0`). Surrounding whitespace is ignored;
 * `test` needs no model. Returns a {@link SpecProblem} for a malformed string or an unknown
 * provider, with the closest provider or a corrected string as `suggestion`. `show` renders the
 * string (or a part of it) in messages; default {@link quote}.
 */
export function parseModelSpec(
  spec: unknown,
  show: (text: string) => string = quote,
): ModelSpec | SpecProblem {
  if (typeof spec !== 'string')
    return malformed(`a model string must be a string (${FORMAT}), got ${typeName(spec)}`);
  const text = spec.trim();
  if (text === '') return malformed(`the model string is empty: ${FORMAT}`);
  const colon = text.indexOf(':');
  if (colon < 0) return bare(text, show);
  const provider = text.slice(0, colon).trim();
  const model = text.slice(colon + 1).trim();
  if (provider === '')
    return malformed(`model string ${show(text)} has no provider before the colon: ${FORMAT}`);
  if (!isProviderName(provider)) return unknownProvider(provider, text, show);
  if (model === '')
    return malformed(
      `model string ${show(text)} has no model after the colon: write ${example(provider)}`,
      { provider },
    );
  if (INVALID_MODEL_CHAR.test(model))
    return malformed(
      `model string ${show(text)}: the model id must not contain whitespace or control characters`,
      { provider },
    );
  return { provider, model };
}

/** Whether a parse result is a problem. */
export function isSpecProblem(value: ModelSpec | SpecProblem): value is SpecProblem {
  return 'message' in value;
}

function bare(text: string, show: (text: string) => string): ModelSpec | SpecProblem {
  if (text === 'test') return { provider: 'test', model: '' };
  const provider = closestProvider(text);
  if (provider !== undefined && provider === text.toLowerCase())
    return malformed(
      `model string ${show(text)} names a provider but no model: write ${example(provider)}`,
      { provider, suggestion: provider },
    );
  const guess = providerForModelId(text);
  if (guess !== undefined) {
    const suggestion = `${guess}:${text}`;
    return malformed(
      `model string ${show(text)} has no provider: write "<provider>:<model>"; did you mean ${show(suggestion)}?`,
      { suggestion },
    );
  }
  return malformed(`model string ${show(text)} has no provider: ${FORMAT}; ${knownList()}`, {
    known: KNOWN_PROVIDERS,
  });
}

function unknownProvider(
  provider: string,
  text: string,
  show: (text: string) => string,
): SpecProblem {
  const closest = closestProvider(provider);
  const guess = closest === undefined ? providerForModelId(text) : undefined;
  const suggestion =
    closest !== undefined ? closest : guess !== undefined ? `${guess}:${text}` : undefined;
  const hint =
    closest !== undefined
      ? `; did you mean "${closest}"${closest === provider.toLowerCase() ? ' (provider names are lower case)' : ''}?`
      : guess !== undefined
        ? `; did you mean ${show(`${guess}:${text}`)}?`
        : '';
  return {
    message: `unknown provider ${show(provider)} in model string ${show(text)}${hint} (${knownList()})`,
    init: {
      reason: 'unknown-provider',
      provider,
      known: KNOWN_PROVIDERS,
      ...(suggestion === undefined ? {} : { suggestion }),
    },
  };
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}
