import { isRecord } from '../core/kit/guards';
import { showValue } from '../core/kit/safe-inspect';
import { isStandardSchema } from '../core/tool/standard-schema';
import { memoryOptionError } from './errors';
import type { MemoryOptions } from './options';
import { workingMemoryStore } from './working-memory-store';

const SCOPES = ['owner', 'thread'];

/** Checks `Memory`'s options at construction; a `ConfigError` naming the option otherwise. */
export function checkMemoryOptions(options: unknown): MemoryOptions<object> {
  if (!isRecord(options)) throw memoryOptionError('options', 'options must be an object');
  const { workingMemory, recall, store } = options;
  if (workingMemory === undefined && recall === undefined)
    throw memoryOptionError(
      'options',
      'pass workingMemory ({ schema }), recall ({ store, embedder }) or both',
    );
  if (workingMemory !== undefined) checkWorkingMemory(workingMemory);
  if (recall !== undefined) checkRecall(recall);
  if (store !== undefined) {
    try {
      workingMemoryStore(store);
    } catch (error) {
      throw memoryOptionError('store', (error as Error).message.replace(/^Memory: /, ''));
    }
  }
  return options;
}

function checkWorkingMemory(value: unknown): void {
  if (!isRecord(value) || !isStandardSchema(value.schema))
    throw memoryOptionError(
      'workingMemory.schema',
      'workingMemory needs { schema }, a Standard Schema of an object (zod, valibot, arktype)',
    );
  checkScope('workingMemory.scope', value.scope);
  if (value.initial !== undefined && !isRecord(value.initial))
    throw memoryOptionError('workingMemory.initial', 'workingMemory.initial must be an object');
  if (value.toolName !== undefined && typeof value.toolName !== 'string')
    throw memoryOptionError('workingMemory.toolName', 'workingMemory.toolName must be a string');
}

function checkRecall(value: unknown): void {
  if (!isRecord(value)) throw memoryOptionError('recall', 'recall must be { store, embedder }');
  const { store, embedder, topK, maxTokens, minScore, includeDocuments } = value;
  if (!isRecord(store) || typeof store.query !== 'function' || typeof store.upsert !== 'function')
    throw memoryOptionError(
      'recall.store',
      'recall.store must be a recall store, e.g. memoryRecallStore() from golem/stores/memory',
    );
  if (
    !isRecord(embedder) ||
    typeof embedder.embed !== 'function' ||
    typeof embedder.embedMany !== 'function'
  )
    throw memoryOptionError(
      'recall.embedder',
      'recall.embedder must be an embedding model (embed and embedMany), e.g. openaiEmbedding({ model })',
    );
  if (
    topK !== undefined &&
    !(Number.isInteger(topK) && (topK as number) >= 1 && (topK as number) <= 500)
  )
    throw memoryOptionError(
      'recall.topK',
      `recall.topK must be an integer from 1 to 500, got ${showValue(topK)}`,
    );
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && (maxTokens as number) >= 1))
    throw memoryOptionError(
      'recall.maxTokens',
      `recall.maxTokens must be a positive integer, got ${showValue(maxTokens)}`,
    );
  if (minScore !== undefined && !(typeof minScore === 'number' && minScore >= -1 && minScore <= 1))
    throw memoryOptionError(
      'recall.minScore',
      `recall.minScore must be a number from -1 to 1, got ${showValue(minScore)}`,
    );
  if (includeDocuments !== undefined && typeof includeDocuments !== 'boolean')
    throw memoryOptionError(
      'recall.includeDocuments',
      'recall.includeDocuments must be true or false',
    );
  checkScope('recall.scope', value.scope);
}

function checkScope(option: string, scope: unknown): void {
  if (scope !== undefined && !SCOPES.includes(scope as string))
    throw memoryOptionError(
      option,
      `${option} must be 'owner' or 'thread', got ${showValue(scope)}`,
    );
}
