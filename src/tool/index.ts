export type { Tool, ApprovalPolicy } from './tool';
export { toolSpec } from './tool';
export type { ToolContext } from './context';
export type { ToolDefinition } from './define-tool';
export { defineTool } from './define-tool';
export type { DeferralKind } from './errors';
export { ToolDefinitionError, Deferred, requireApproval, deferExternal } from './errors';
