import type { Attributes, Context, Span } from '@opentelemetry/api';
import { context, SpanKind, trace } from '@opentelemetry/api';
import type {
  FallbackEvent,
  GuardrailEvent,
  HandoffEvent,
  ModelEndEvent,
  ModelEndSucceeded,
  ModelStartEvent,
  OutputRejectedEvent,
  RunEvent,
  ToolResolvedEvent,
} from '../core/engine/events';
import type {
  RunOutcome,
  RunStartInfo,
  RunTrace,
  TraceScope,
} from '../core/engine/instrumentation';
import { addCost } from '../core/contract/cost';
import { safeGet } from '../core/kit/safe-inspect';
import { addUsage, emptyUsage } from '../core/contract/usage';
import { captureInput, captureOutput, captureText } from './content';
import { errorType } from './error-type';
import { recordChat } from './metrics';
import type { ModelIdentity } from './providers';
import { identify } from './providers';
import { finishRunSpan, type RunSummary } from './run-span';
import { ATTR, EVENT } from './semconv';
import {
  costAttributes,
  recordFailure,
  requestAttributes,
  usageAttributes,
} from './span-attributes';
import { ToolSpans } from './tool-spans';
import { CompactionSpans } from './compaction-spans';
import { recordToolUpdate } from './tool-updates';
import { recordGuardrail, recordResolved } from './decision-events';
import type { OpenSpan, TraceSettings } from './trace-settings';

export type { TraceSettings } from './trace-settings';

interface ChatSpan extends OpenSpan {
  readonly started: number;
  identity: ModelIdentity;
}

/**
 * One run as OpenTelemetry spans: `invoke_agent {agent}` (INTERNAL) joining the caller's context,
 * a `chat {model}` (CLIENT) child per provider attempt and an `execute_tool {tool}` (INTERNAL)
 * child per tool execution; fallbacks, output corrections, deferrals, resolutions on resume,
 * guardrail decisions and pauses as span events.
 * Records the `gen_ai.client.*` histograms for every chat attempt.
 */
export class OtelRunTrace implements RunTrace {
  private readonly run: OpenSpan;
  /**
   * Where chat, tool and compaction spans go: the run span, or after a handoff the target's
   * `invoke_agent` span (a child of the run span) — mutated in place, ToolSpans and
   * CompactionSpans read it at each span they open.
   */
  private readonly parent: { span: Span; context: Context };
  private segment: Span | undefined;
  /** Whether the run span records (an SDK is registered and sampled it in). */
  readonly recording: boolean;
  private readonly agentModel: ModelIdentity;
  private readonly tools: ToolSpans;
  private readonly compactions: CompactionSpans;
  private chat: ChatSpan | undefined;
  private readonly summary: RunSummary = {
    usage: undefined,
    cost: undefined,
    responseModel: undefined,
    lastAnswer: undefined,
  };
  private inputCaptured = false;

  constructor(
    private readonly info: RunStartInfo,
    private readonly settings: TraceSettings,
    parent: Context,
  ) {
    this.agentModel = identify(info.model.name);
    const base = settings.bases.run(info.agent, this.agentModel, info.outputType);
    let attributes = base;
    if (info.conversation !== undefined || info.runId !== undefined || info.stream) {
      attributes = { ...base };
      if (info.conversation !== undefined) attributes[ATTR.conversationId] = info.conversation;
      if (info.runId !== undefined) attributes[ATTR.golemRunId] = info.runId;
      if (info.stream) attributes[ATTR.golemStream] = true;
    }
    const span = settings.tracer.startSpan(
      `invoke_agent ${info.agent}`,
      { kind: SpanKind.INTERNAL, attributes },
      parent,
    );
    this.run = { span, context: trace.setSpan(parent, span) };
    this.parent = { ...this.run };
    this.recording = span.isRecording();
    this.tools = new ToolSpans(settings, this.parent, info.tools);
    this.compactions = new CompactionSpans(settings, this.parent);
  }

  observe(event: RunEvent): void {
    switch (event.kind) {
      case 'model_start':
        this.startChat(event);
        return;
      case 'fallback':
        this.fallback(event);
        return;
      case 'model_end':
        this.endChat(event);
        return;
      case 'tool_start':
        if (this.recording) this.tools.start(event);
        return;
      case 'tool_end':
      case 'deferred':
        this.tools.end(event);
        return;
      case 'output_rejected':
        this.outputRejected(event);
        return;
      case 'tool_resolved':
        this.toolResolved(event);
        return;
      case 'tool_progress':
      case 'tool_log':
        recordToolUpdate(this.tools.contextOf(event.callId), event, this.settings);
        return;
      case 'guardrail':
        this.guardrail(event);
        return;
      case 'compaction':
        if (this.recording) this.compactions.observe(event);
        return;
      case 'memory_failed':
        if (this.recording)
          this.run.span.addEvent(EVENT.memoryFailed, { [ATTR.errorType]: errorType(event.error) });
        return;
      case 'handoff':
        if (this.recording) this.handoff(event);
        return;
    }
  }

  /**
   * The run handed off: the target's work goes under its own `invoke_agent {target}` span, a child
   * of the run span (open until the next handoff or the run's end).
   */
  private handoff(event: HandoffEvent): void {
    this.chat?.span.end();
    this.chat = undefined;
    this.segment?.end();
    const span = this.settings.tracer.startSpan(
      `invoke_agent ${event.to}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTR.operationName]: 'invoke_agent',
          [ATTR.agentName]: event.to,
          [ATTR.golemHandoffFrom]: event.from,
          [ATTR.golemAgentRoot]: this.info.agent,
          [ATTR.toolCallId]: event.callId,
          [ATTR.golemTurn]: event.turn,
        },
      },
      this.run.context,
    );
    this.segment = span;
    this.parent.span = span;
    this.parent.context = trace.setSpan(this.run.context, span);
  }

  within<T>(scope: TraceScope, call: () => Promise<T>): Promise<T> {
    if (scope.kind === 'compaction')
      return this.recording ? this.compactions.within(scope.turn, scope.policy, call) : call();
    const active = scope.kind === 'model' ? this.chat?.context : this.tools.contextOf(scope.callId);
    return context.with(active ?? this.parent.context, call);
  }

  end(outcome: RunOutcome): void {
    this.compactions.endOpen();
    if (this.chat !== undefined) this.chat.span.end();
    this.tools.endAll();
    this.segment?.end();
    const span = this.run.span;
    if (this.recording) finishRunSpan(span, outcome, this.summary, this.settings);
    span.end();
  }

  private startChat(event: ModelStartEvent): void {
    this.chat?.span.end();
    this.compactions.endOpen();
    const identity = event.model === this.info.model.name ? this.agentModel : identify(event.model);
    // Only the duration histogram reads the start time.
    const started = this.settings.instruments === undefined ? 0 : performance.now();
    if (!this.recording) {
      this.chat = {
        span: trace.wrapSpanContext(this.run.span.spanContext()),
        context: this.run.context,
        started,
        identity,
      };
      return;
    }
    const request = event.request;
    const attributes: Attributes = { ...this.settings.bases.chat(identity) };
    if (request.settings !== undefined) requestAttributes(request.settings, attributes);
    attributes[ATTR.golemTurn] = event.turn;
    attributes[ATTR.golemAttempt] = event.attempt;
    if (event.contextTokens !== undefined)
      attributes[ATTR.golemContextTokens] = event.contextTokens;
    if (this.info.conversation !== undefined)
      attributes[ATTR.conversationId] = this.info.conversation;
    if (request.outputSchema !== undefined) attributes[ATTR.outputType] = 'json';
    if (this.info.stream) attributes[ATTR.golemStream] = true;
    const span = this.settings.tracer.startSpan(
      `chat ${identity.model}`,
      { kind: SpanKind.CLIENT, attributes },
      this.parent.context,
    );
    this.chat = { span, context: trace.setSpan(this.parent.context, span), started, identity };
    const content = this.settings.content;
    if (content === undefined) return;
    const input = captureInput(request.messages, content);
    if (input.system !== undefined) span.setAttribute(ATTR.systemInstructions, input.system);
    span.setAttribute(ATTR.inputMessages, input.messages);
    if (!this.inputCaptured) {
      this.inputCaptured = true;
      if (input.system !== undefined)
        this.run.span.setAttribute(ATTR.systemInstructions, input.system);
      this.run.span.setAttribute(ATTR.inputMessages, input.messages);
    }
  }

  private fallback(event: FallbackEvent): void {
    const chat = this.chat;
    if (chat === undefined) return;
    const identity = identify(event.nextModel);
    chat.identity = identity;
    // The next member answers: the span (name included) describes the call that answered.
    chat.span.updateName(`chat ${identity.model}`);
    chat.span.setAttributes({
      [ATTR.providerName]: identity.provider,
      [ATTR.requestModel]: identity.model,
    });
    chat.span.addEvent(EVENT.fallback, {
      [ATTR.golemFallbackFrom]: event.model,
      [ATTR.golemFallbackTo]: event.nextModel,
      [ATTR.errorType]: errorType(event.error),
    });
  }

  private endChat(event: ModelEndEvent): void {
    const chat = this.chat;
    if (chat === undefined) return;
    this.chat = undefined;
    const { span, identity } = chat;
    const instruments = this.settings.instruments;
    let failure: string | undefined;
    let responseModel: string | undefined;
    if (event.message === undefined) {
      if (this.recording) failure = recordFailure(span, event.error, this.settings.secrets);
      else if (instruments !== undefined) failure = errorType(event.error);
    } else {
      this.chatSucceeded(span, event);
      responseModel = event.responseModel;
    }
    span.end();
    if (instruments === undefined) return;
    const attributes = this.settings.bases.chatMetrics(identity, responseModel);
    recordChat(instruments, attributes, chat.started, failure, event.usage);
  }

  private chatSucceeded(span: Span, event: ModelEndSucceeded): void {
    const summary = this.summary;
    summary.usage = addUsage(summary.usage ?? emptyUsage(), event.usage);
    if (event.cost !== undefined) summary.cost = addCost(summary.cost, event.cost);
    if (event.responseModel !== undefined) summary.responseModel = event.responseModel;
    summary.lastAnswer = { message: event.message, finishReason: event.finishReason };
    if (!this.recording) return;
    const attributes: Attributes = {};
    if (event.responseId !== undefined) attributes[ATTR.responseId] = event.responseId;
    if (event.responseModel !== undefined) attributes[ATTR.responseModel] = event.responseModel;
    if (event.finishReason !== undefined)
      attributes[ATTR.responseFinishReasons] = [event.finishReason];
    usageAttributes(event.usage, attributes);
    // A response cache answered this call: the provider was never asked.
    if ((event.usage.cachedResponses ?? 0) > 0) attributes[ATTR.golemCacheHit] = true;
    if (event.cost !== undefined) costAttributes(event.cost, attributes);
    span.setAttributes(attributes);
    const content = this.settings.content;
    if (content !== undefined)
      span.setAttribute(
        ATTR.outputMessages,
        captureOutput(event.message, event.finishReason, content),
      );
  }

  private toolResolved(event: ToolResolvedEvent): void {
    if (this.recording) recordResolved(this.run.span, event, this.settings);
  }

  /** On the call's `execute_tool` span for a tool phase (while it is open), else on `invoke_agent`. */
  private guardrail(event: GuardrailEvent): void {
    if (!this.recording) return;
    const tool = event.callId === undefined ? undefined : this.tools.contextOf(event.callId);
    const span = (tool === undefined ? undefined : trace.getSpan(tool)) ?? this.run.span;
    recordGuardrail(span, event, this.settings);
  }

  private outputRejected(event: OutputRejectedEvent): void {
    if (!this.recording) return;
    const attributes: Attributes = {
      [ATTR.golemRound]: event.attempt,
      [ATTR.errorType]: errorType(event.error),
    };
    const content = this.settings.content;
    const reason = safeGet(event.error, 'reason');
    if (content !== undefined && typeof reason === 'string')
      attributes[ATTR.golemReason] = captureText(reason, content);
    this.run.span.addEvent(EVENT.outputRejected, attributes);
  }
}
