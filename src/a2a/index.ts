/**
 * `golem/a2a`: the Agent2Agent protocol (A2A 1.0, JSON-RPC binding). Serve golem agents to any
 * A2A client with a card generated from the agent (`createA2AServer`), and call remote A2A agents
 * as tools, handoff targets or directly (`connectA2A`).
 * @packageDocumentation
 */
export { createA2AServer, type A2AServer } from './server/server';
export type {
  A2AServerOptions,
  AgentCardOverrides,
  PushNotificationOptions,
} from './server/server-options';
export { agentCard, type AgentCardOptions } from './server/card';
export type {
  ServableAgent,
  ServableDescription,
  ServedResumeOptions,
  ServedRunOptions,
  ServedRunStream,
} from './server/servable-agent';
export { connectA2A } from './client/connect';
export type { A2AConnection, A2AInput } from './client/connection-types';
export { pendingA2ATask, type PendingA2ATask } from './client/pending-task';
export type {
  ConnectA2AOptions,
  A2ASendOptions,
  A2ACallOptions,
  A2AToolOptions,
  A2AAgentOptions,
  A2AAnswer,
} from './client/options';
export { isA2AError, type A2AFailure } from './a2a-error';
export {
  A2A_ERROR_CODES,
  A2A_METHODS,
  A2A_PUSH_METHODS,
  CARD_PATH,
  PROTOCOL_VERSION,
  TASK_STATES,
  type A2AMethod,
  type AuthenticationInfo,
  type Artifact,
  type DataPart,
  type Message,
  type Part,
  type PartCommon,
  type RawPart,
  type Role,
  type SendMessageResult,
  type StreamResponse,
  type Task,
  type TaskArtifactUpdateEvent,
  type TaskPushNotificationConfig,
  type TaskState,
  type TaskStatus,
  type TaskStatusUpdateEvent,
  type TextPart,
  type UrlPart,
  type WireMetadata,
} from './wire-types';
export type {
  AgentCapabilities,
  AgentCard,
  AgentExtension,
  AgentInterface,
  AgentProvider,
  AgentSkill,
  ApiKeySecurityScheme,
  HttpAuthSecurityScheme,
  SecurityRequirement,
  SecurityScheme,
  StringList,
} from './card-types';
