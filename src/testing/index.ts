/**
 * Public test doubles (`golem/testing`): scripted, function-backed and script-free models, plus
 * the helpers that build responses and sample JSON Schemas.
 */
export type { ScriptedOutcome, ScriptedResponder, ScriptedModelOptions } from './scripted-model';
export { ScriptedModel } from './scripted-model';
export { RecordingModel } from './request-log';
export type { ScriptedToolCall } from './responses';
export { textResponse, toolCallResponse } from './responses';
export type {
  ModelFunction,
  StreamModelFunction,
  Emit,
  FunctionModelOptions,
} from './function-model';
export { FunctionModel, StreamFunctionModel, emit } from './function-model';
export type { TestModelOptions } from './test-model';
export { TestModel } from './test-model';
export type { SampleOptions } from './schema-sample';
export { sampleFromSchema, SchemaSampleError } from './schema-sample';
export { cloneRequest, cloneResponse } from './deep-copy';
