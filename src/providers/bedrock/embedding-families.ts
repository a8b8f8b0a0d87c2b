import { modelConfigError, ModelProtocolError } from '../../core/errors/provider-errors';
import { isRecord } from '../../core/kit/guards';
import { tokenCount } from '../shared/embedding-vectors';
import { PROVIDER } from './sdk';

/** How one family of Bedrock embedding models is called through InvokeModel. */
export interface EmbeddingFamily {
  readonly label: string;
  /** Values one InvokeModel call takes (and the largest `maxBatch`). */
  readonly limit: number;
  /** The documented default vector length, if any. */
  readonly defaultDimensions: number | undefined;
  /** Whether `dimensions` can be requested. */
  readonly acceptsDimensions: boolean;
  body(
    batch: readonly string[],
    purpose: 'query' | 'document',
    settings: FamilySettings,
  ): Record<string, unknown>;
  /** The batch's vectors (unchecked) and the tokens the body reports (`undefined` if none). */
  parse(json: unknown): { vectors: unknown; inputTokens: number | undefined };
}

/** Options that shape a request body. */
export interface FamilySettings {
  dimensions: number | undefined;
  normalize: boolean | undefined;
}

/**
 * Amazon Titan Text Embeddings V2: one text per call, `{inputText, dimensions?, normalize?}` →
 * `{embedding, inputTextTokenCount}`; dimensions 256, 512 or 1024 (default).
 */
const TITAN_V2: EmbeddingFamily = {
  label: 'Amazon Titan Text Embeddings V2',
  limit: 1,
  defaultDimensions: 1024,
  acceptsDimensions: true,
  body: ([text], _purpose, settings) => ({
    inputText: text,
    ...(settings.dimensions === undefined ? {} : { dimensions: settings.dimensions }),
    ...(settings.normalize === undefined ? {} : { normalize: settings.normalize }),
  }),
  parse: (json) => {
    if (!isRecord(json))
      throw new ModelProtocolError(PROVIDER, 'embedding response: the body is not an object');
    return { vectors: [json.embedding], inputTokens: tokenCount(json.inputTextTokenCount) };
  },
};

/** Amazon Titan Embeddings G1 - Text: `{inputText}` only; 1536 dimensions. */
const TITAN_V1: EmbeddingFamily = {
  ...TITAN_V2,
  label: 'Amazon Titan Embeddings G1 - Text',
  defaultDimensions: 1536,
  acceptsDimensions: false,
  body: ([text]) => ({ inputText: text }),
};

/**
 * Cohere Embed v3 on Bedrock: up to 96 texts, `{texts, input_type, embedding_types: ['float']}`
 * → `{embeddings: {float: [[…]]}}` (or `{embeddings: [[…]]}` without embedding types); 1024
 * dimensions. The body reports no tokens (the `X-Amzn-Bedrock-Input-Token-Count` header does).
 */
const COHERE_V3: EmbeddingFamily = {
  label: 'Cohere Embed v3',
  limit: 96,
  defaultDimensions: 1024,
  acceptsDimensions: false,
  body: (batch, purpose) => ({
    texts: [...batch],
    input_type: purpose === 'query' ? 'search_query' : 'search_document',
    embedding_types: ['float'],
  }),
  parse: (json) => {
    if (!isRecord(json))
      throw new ModelProtocolError(PROVIDER, 'embedding response: the body is not an object');
    const embeddings = json.embeddings;
    const vectors = isRecord(embeddings) ? embeddings.float : embeddings;
    return { vectors, inputTokens: undefined };
  },
};

/** The family of a model id (inference-profile prefixes such as `us.` allowed). */
export function embeddingFamily(modelId: string): EmbeddingFamily {
  if (modelId.includes('amazon.titan-embed-text-v2')) return TITAN_V2;
  if (modelId.includes('amazon.titan-embed-text-v1')) return TITAN_V1;
  if (/cohere\.embed-(english|multilingual)-v3/.test(modelId)) return COHERE_V3;
  throw modelConfigError(
    PROVIDER,
    `no embedding wire format known for model ${JSON.stringify(modelId)}; supported: amazon.titan-embed-text-v2:0, amazon.titan-embed-text-v1, cohere.embed-english-v3, cohere.embed-multilingual-v3`,
  );
}
