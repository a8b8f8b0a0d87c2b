/**
 * `golem/studio`: the server of Golem Studio, the local web app to watch, debug, approve and
 * replay runs (`golem studio` serves it). `createStudio` answers the app's HTTP contract — the
 * types below — over a run store.
 * @packageDocumentation
 */
export { createStudio, type Studio } from './server';
export type {
  StudioAgent,
  StudioOptions,
  StudioErrorInfo,
  StudioQueue,
  StudioQueueScope,
  StudioQueueStatus,
} from './studio-options';
export type {
  CancelBody,
  DecisionsBody,
  EvalReportSummary,
  ReplayBody,
  RunDetail,
  RunPage,
  RunSummary,
  SpanEvent,
  SpanSummary,
  StartedRun,
  StudioAgentInfo,
  StudioCost,
  StudioErrorBody,
  StudioGuardrailVerdict,
  StudioInfo,
  StudioPendingCall,
  StudioQueueState,
  StudioRunStatus,
  StudioToolCall,
  StudioTurn,
  StudioUsage,
} from './api-types';
