/**
 * Azure OpenAI chat completions (`golem/providers/azure`): deployment URLs with an explicit
 * api-version, or the v1 API; `api-key` or Microsoft Entra ID bearer tokens.
 * @packageDocumentation
 */
export type { AzureOptions } from './model';
export { AzureChatModel, azure } from './model';
export { AZURE_CAPABILITIES } from './addressing';
export type { AzureEmbeddingOptions } from './embedding';
export { AzureEmbeddingModel, azureEmbedding } from './embedding';
