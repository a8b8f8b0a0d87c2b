/**
 * Model strings (`golem/providers/resolve`): `resolveModel('anthropic:claude-sonnet-4-5')` builds
 * the adapter a `provider:model` string names, with keys and endpoints read from the environment
 * — the only place in Golem that reads it — and `detectDefaultModel(env)` picks the first
 * configured provider, or `test`. For the container, the CLI and apps configured by strings.
 * @packageDocumentation
 */
export type { ResolvedModel } from './resolve';
export { resolveModel } from './resolve';
export type {
  ResolveModelOptions,
  ProviderOverrides,
  OpenAIOverrides,
  TestModelFactory,
} from './options';
export type { ResolveEnvironment } from './environment';
export { detectDefaultModel, secretValues } from './environment';
export type { ProviderName } from './providers';
export { KNOWN_PROVIDERS } from './providers';
export type { ResolveEmbeddingOptions, EmbeddingOverrides } from './resolve-embedding';
export { resolveEmbeddingModel } from './resolve-embedding';
