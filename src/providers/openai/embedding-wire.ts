import { ModelProtocolError } from '../../core/errors/provider-errors';
import { isRecord } from '../../core/kit/guards';
import type { BatchAnswer } from '../shared/embedding-batch';
import { orderByIndex, tokenCount } from '../shared/embedding-vectors';
import { embeddedError } from './errors';

/**
 * The body of `POST /embeddings`: `{input, model?, dimensions?, encoding_format: 'float'}`
 * (`model` is left out for Azure deployment URLs, which name the model in the path).
 */
export function embeddingBody(
  batch: readonly string[],
  model: string | undefined,
  dimensions: number | undefined,
): Record<string, unknown> {
  const body: Record<string, unknown> = { input: [...batch] };
  if (model !== undefined) body.model = model;
  if (dimensions !== undefined) body.dimensions = dimensions;
  body.encoding_format = 'float';
  return body;
}

/**
 * Reads `{data: [{index, embedding}], usage: {prompt_tokens}}`: items are put back in input
 * order by `index`; the vectors are checked by the caller. An `{error}` body with status 200 is
 * the provider's error; a body without `data` is a `ModelProtocolError`. Missing usage is `0`.
 */
export function parseEmbeddingList(
  provider: string,
  json: unknown,
  count: number,
  secrets: readonly string[],
): BatchAnswer {
  if (isRecord(json) && json.error !== undefined && json.error !== null)
    throw embeddedError(provider, json, 'body', secrets);
  if (!isRecord(json) || !Array.isArray(json.data))
    throw new ModelProtocolError(provider, 'embedding response: the body has no `data` array');
  const ordered = orderByIndex(provider, json.data, count) as readonly unknown[];
  const vectors = ordered.map((item) => (isRecord(item) ? item.embedding : item));
  const usage = isRecord(json.usage) ? json.usage : {};
  return { vectors, inputTokens: tokenCount(usage.prompt_tokens) };
}
