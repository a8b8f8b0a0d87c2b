/**
 * `golem/container`: agents in an Inversify container. Models are bindings by name (instances,
 * lazy factories, model strings), agent classes resolve with constructor injection into typed
 * engine agents (`container.get(agentOf(WeatherAgent))`), tests override models in one line, and
 * request scopes give each request its own collaborators; `@Workflow` classes resolve into
 * workflow definitions run by the container's `WORKFLOW_RUNNER`. Needs inversify (7 or 8) and
 * the peers of `golem/decorators`, checked first (a `missing-peer` `ConfigError` names the
 * `npm install` command); imports `reflect-metadata` first (through `golem/decorators`).
 * @packageDocumentation
 */
import './peers';
import '../decorators/index';

export { createGolemContainer } from './create-container';
export type { GolemContainerOptions } from './create-container';
export { golemModule } from './golem-module';
export type { GolemModuleOptions } from './golem-module';
export { bindModel } from './model-bindings';
export type { Binder } from './model-bindings';
export type { ModelSource, ModelFactory, ModelFactoryContext } from './model-source';
export { isModelString } from './model-source';
export type { ModelStringSettings } from './model-strings';
export { bindAgent } from './bind-agent';
export type { AgentBindingOptions, AgentScope } from './bind-agent';
export { agentOf, modelToken, RUN_STORE, INSTRUMENTATION, PRICES } from './tokens';
export { MEMORY } from './memory';
export { MIDDLEWARE } from './middleware';
export type { Token, AgentToken, AgentClass, ResolvedAgent } from './tokens';
export { resolveAgent } from './resolve-agent';
export { queueAgents } from './queue-agents';
export type { AgentResolver } from './resolve-agent';
export { overrideModel, withModelOverrides } from './overrides';
export type { OverrideTarget } from './overrides';
export { createRequestScope, runInScope } from './request-scope';
export type { ScopeSetup, RunInScopeOptions } from './request-scope';
export { ScopeTeardownError } from './errors';
export { bindWorkflow } from './bind-workflow';
export { resolveWorkflow } from './resolve-workflow';
export { workflowOf, WORKFLOW_RUNNER } from './workflow-tokens';
export type { WorkflowToken } from './workflow-tokens';
export type { ContainerRunnerOptions } from './workflow-runner';
