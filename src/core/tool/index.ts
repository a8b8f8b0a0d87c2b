export type { Tool, ApprovalPolicy } from './tool';
export { toolSpec } from './tool';
export type { ToolContext, ToolUpdate } from './context';
export type {
  ToolDefinition,
  ToolDefinitionBase,
  JsonSchemaToolDefinition,
  SchemaToolDefinition,
} from './define-tool';
export { defineTool } from './define-tool';
export type { DeferralKind } from './errors';
export { ToolResultError, Deferred, requireApproval, deferExternal } from './errors';
export { renderToolResult } from './tool-result';
export type {
  StandardSchemaV1,
  StandardSchemaProps,
  StandardSchemaOptions,
  StandardSchemaTypes,
  StandardSchemaResult,
  StandardSchemaIssue,
  StandardSchemaPathSegment,
  InferSchemaInput,
  InferSchemaOutput,
} from './standard-schema';
export { isStandardSchema } from './standard-schema';
export { jsonSchemaOf } from './standard-json-schema';
export { validateWithSchema, issuesText } from './standard-issues';
