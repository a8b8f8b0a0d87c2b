/**
 * `golem/ui`: Golem runs as the AI SDK UI message stream (protocol v1, the one `useChat` from
 * `@ai-sdk/react` reads) — chunks from a streaming run, SSE responses for fetch-style and Node
 * servers, the reverse (a client's `UIMessage[]` as run history), and approvals in the browser:
 * a paused run's approvals become tool parts awaiting a decision, and the client's decisions
 * resume the run. No dependency on the `ai` package.
 * @packageDocumentation
 */
export { toUIMessageStream } from './to-ui-stream';
export type { AsyncIterableStream } from './iterable-stream';
export type { UIEventSource, UIMessageStreamOptions, UIMetadataPart } from './stream-options';
export type {
  UIMessageChunk,
  UIMessageChunkType,
  UIFinishReason,
  GolemMessageMetadata,
} from './chunk-types';
export {
  createUIMessageStreamResponse,
  formatUIMessageChunk,
  toSseStream,
  UI_MESSAGE_STREAM_HEADERS,
  UI_MESSAGE_STREAM_DONE,
} from './sse';
export type { UIResponseOptions, UIStreamSource } from './sse';
export { pipeUIMessageStreamToResponse } from './node-response';
export type { NodeResponseLike } from './node-response';
export { fromUIMessages } from './from-ui-messages';
export type { ChatTurn, ChatResume } from './from-ui-messages';
export { UIMessageError } from './ui-message-error';
export { chatStream, chatResponse } from './chat';
export type { ChatAgent, ChatOptions } from './chat';
export { pipeChat } from './chat-node';
export type { NodeRequestLike, PipeChatOptions } from './chat-node';
