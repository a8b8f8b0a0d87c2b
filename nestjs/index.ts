/**
 * `golem/nestjs`: Golem in a NestJS application. `GolemModule.forRoot` / `forRootAsync` hold the
 * models by name; `GolemModule.forFeature([WeatherAgent])` registers agent classes in a feature
 * module, created by Nest in that module's context; `@InjectAgent(WeatherAgent)` injects the typed
 * engine agent (for `@Workflow` classes, `@InjectWorkflow(OrderWorkflow)` injects the definition
 * and `GolemWorkflowRunner` runs it); `getModelToken(name)` is what tests override; `sseFromRun`
 * streams a run to an `@Sse()` handler. Needs the optional peers `@nestjs/common`, `@nestjs/core`
 * and `rxjs` (Nest 10, 11 or 12); loading it without them throws a `missing-peer` `ConfigError`.
 * Imports `reflect-metadata` first (through `golem/decorators`).
 * @packageDocumentation
 */
import './peer';
import '../decorators/index';

export { GolemModule } from './golem-module';
export type { GolemModuleOptions, GolemModuleAsyncOptions, Closable } from './options';
export type {
  AgentScope,
  AgentEntry,
  AgentRegistration,
  AgentTools,
  AgentToolsFactory,
  GolemFeatureOptions,
} from './feature';
export { GolemModels } from './model-registry';
export type { ModelRegistryInit, ModelRequester } from './model-registry';
export { isModelString } from './model-source';
export type {
  ModelSource,
  ModelFactory,
  ModelFactoryContext,
  ModelStringSettings,
  CheckedSource,
} from './model-source';
export { GolemLifecycle } from './lifecycle';
export { GolemObservability } from './observability';
export { getModelToken, getAgentToken, InjectAgent } from './tokens';
export { getRunStoreToken, InjectRunStore } from './run-store';
export { getWorkflowToken, InjectWorkflow } from './workflow-tokens';
export { GolemWorkflowRunner } from './workflow-runner';
export type { NestRunnerOptions } from './workflow-runner';
export { getMemoryToken, InjectMemory } from './memory';
export { GolemMiddleware, GolemAppMiddleware } from './middleware';
export { RunOwner, RunOwnerPipe, GolemRunOwner } from './run-owner';
export type { RunOwnerOf } from './run-owner';
export type { AgentClass, InjectedAgent } from './tokens';
export { sseFromRun, clientDisconnected } from './sse';
export { writeRunSse, formatSseEvent } from './write-sse';
export type { SseResponse } from './write-sse';
export { runErrorData } from './run-events';
export type {
  RunMessageEvent,
  RunResultData,
  RunErrorData,
  RunEventsOptions,
  StartRun,
} from './run-events';
export { GolemExceptionFilter, runErrorResponse } from './exception-filter';
export type { RunErrorBody } from './exception-filter';
export { GolemTestingModule, overrideModels } from './testing';
export type { ProviderOverrider } from './testing';
export { A2AModule } from './a2a-module';
export { A2A_SERVER, InjectA2AServer } from './a2a-token';
export type { A2AModuleOptions, A2AModuleAsyncOptions, A2AModuleAgent } from './a2a-options';
