/**
 * Public test doubles (`golem/testing`): scripted, function-backed and script-free models, the
 * record/replay kit for provider traffic (`recordingFetch`, `replayFetch`, `recordingHandler`,
 * `replayHandler`), and the helpers that build responses and sample JSON Schemas.
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
export { sampleFromSchema } from './schema-sample';
export { cloneRequest, cloneResponse } from './deep-copy';
export type {
  Fixture,
  FixtureExchange,
  FixtureFrame,
  FixtureRequest,
  FixtureResponse,
  FixtureSource,
} from './record-replay/fixture-types';
export { loadFixture, saveFixture, serializeFixture } from './record-replay/fixture';
export { parseFixture } from './record-replay/fixture-validate';
export type { RecordOptions } from './record-replay/recorder';
export type { RecordFetchOptions, RecordingFetch } from './record-replay/record-fetch';
export { recordingFetch } from './record-replay/record-fetch';
export type { ReplayMatch, ReplayOptions } from './record-replay/replay-queue';
export type { ReplayFetch, ReplayFetchOptions } from './record-replay/replay-fetch';
export { replayFetch } from './record-replay/replay-fetch';
export type {
  HttpHandlerLike,
  HttpHandlerOptionsLike,
  HttpRequestLike,
  HttpResponseLike,
} from './record-replay/http-handler';
export type { RecordHandlerOptions, RecordingHandler } from './record-replay/record-handler';
export { recordingHandler } from './record-replay/record-handler';
export type { ReplayHandler, ReplayHandlerOptions } from './record-replay/replay-handler';
export { replayHandler } from './record-replay/replay-handler';
export type { TestEmbeddingModelOptions, TestEmbeddingCall } from './embedding-model';
export { TestEmbeddingModel } from './embedding-model';
