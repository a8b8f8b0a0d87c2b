/**
 * AWS Bedrock adapter (Converse / ConverseStream) for golem. `@aws-sdk/client-bedrock-runtime` is
 * an optional peer dependency, loaded only when a model is built.
 */
export { BedrockModel, bedrock } from './model';
export type {
  BedrockOptions,
  BedrockCredentials,
  BedrockCredentialIdentity,
  BedrockClient,
  BedrockClientConfig,
} from './options';
export type { BedrockSdk, BedrockSdkLoader } from './sdk';
export type { BedrockEmbeddingOptions } from './embedding';
export { BedrockEmbeddingModel, bedrockEmbedding } from './embedding';
export type { BedrockRerankOptions } from './rerank';
export { BedrockRerankModel, bedrockRerank } from './rerank';
export type { BedrockInvokeOptions } from './embedding-invoke';
