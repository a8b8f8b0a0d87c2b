/**
 * The OpenTelemetry GenAI semantic-convention names golem emits (semantic conventions v1.41,
 * "Development" status; the `gen_ai_latest_experimental` flavour), and golem's own attributes
 * under `golem.*`.
 */
export const ATTR = Object.freeze({
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversationId: 'gen_ai.conversation.id',
  outputType: 'gen_ai.output.type',
  requestModel: 'gen_ai.request.model',
  requestTemperature: 'gen_ai.request.temperature',
  requestTopP: 'gen_ai.request.top_p',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  requestStopSequences: 'gen_ai.request.stop_sequences',
  requestSeed: 'gen_ai.request.seed',
  requestPresencePenalty: 'gen_ai.request.presence_penalty',
  requestFrequencyPenalty: 'gen_ai.request.frequency_penalty',
  responseId: 'gen_ai.response.id',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheWriteTokens: 'gen_ai.usage.cache_creation.input_tokens',
  reasoningTokens: 'gen_ai.usage.reasoning.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolDescription: 'gen_ai.tool.description',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  systemInstructions: 'gen_ai.system_instructions',
  tokenType: 'gen_ai.token.type',
  errorType: 'error.type',
  golemTurn: 'golem.turn',
  golemAttempt: 'golem.attempt',
  golemStream: 'golem.stream',
  golemRunId: 'golem.run.id',
  golemStage: 'golem.run.stage',
  golemRequests: 'golem.run.requests',
  golemToolCalls: 'golem.run.tool_calls',
  golemPending: 'golem.run.pending_calls',
  golemCost: 'golem.cost.total',
  golemCostInput: 'golem.cost.input',
  golemCostOutput: 'golem.cost.output',
  golemCostCurrency: 'golem.cost.currency',
  golemUnpriced: 'golem.cost.unpriced_responses',
  golemDeferred: 'golem.tool.deferred',
  golemFallbackFrom: 'golem.fallback.from',
  golemFallbackTo: 'golem.fallback.to',
  golemRound: 'golem.output.round',
  golemReason: 'golem.output.reason',
  golemProgress: 'golem.tool.progress.value',
  golemProgressTotal: 'golem.tool.progress.total',
  golemProgressMessage: 'golem.tool.progress.message',
  golemLogLevel: 'golem.tool.log.level',
  golemLogLogger: 'golem.tool.log.logger',
  golemLogData: 'golem.tool.log.data',
  golemResolution: 'golem.tool.resolution',
  golemGuardrailName: 'golem.guardrail.name',
  golemGuardrailPhase: 'golem.guardrail.phase',
  golemGuardrailOutcome: 'golem.guardrail.outcome',
  golemGuardrailReason: 'golem.guardrail.reason',
});

/** Span event names golem adds (no convention exists for them). */
export const EVENT = Object.freeze({
  fallback: 'golem.fallback',
  outputRejected: 'golem.output_rejected',
  deferred: 'golem.tool.deferred',
  paused: 'golem.run.paused',
  toolProgress: 'golem.tool.progress',
  toolLog: 'golem.tool.log',
  toolResolved: 'golem.tool.resolved',
  guardrail: 'golem.guardrail',
});

/** The metrics of the convention, with its recommended bucket boundaries. */
export const METRIC = Object.freeze({
  tokenUsage: 'gen_ai.client.token.usage',
  tokenUsageBuckets: [
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864,
  ],
  duration: 'gen_ai.client.operation.duration',
  durationBuckets: [
    0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
  ],
});

/** The instrumentation scope name of golem's tracer and meter. */
export const SCOPE = 'golem';
