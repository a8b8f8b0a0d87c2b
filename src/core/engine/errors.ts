import { causeText, RUN_ERROR_PREFIX } from '../kit/cause-text';
import type { Compaction } from './compaction';
import { GolemError, brandGuard } from '../kit/error-base';
import { ConfigError } from '../kit/config-error';
import type { Message } from '../contract/message';
import type { Usage } from '../contract/usage';
import type { RunCost } from './result';

/** Where a run failed. Stable identifiers. */
export type RunStage = 'model' | 'decode' | 'tool' | 'loop' | 'usage' | 'guardrail';

/** The stages, exactly as they appear in `RunError.stage`. */
export const RUN_STAGES: readonly RunStage[] = [
  'model',
  'decode',
  'tool',
  'loop',
  'usage',
  'guardrail',
];

/** What a failed run had produced before it failed. */
export interface PartialEvidence {
  /** The conversation through the last completed model turn (history and prompt included). */
  messages: Message[];
  /** Usage summed over completed turns. */
  usage: Usage;
  /** Provider calls made, failed attempts included. */
  requests: number;
  /** Tool executions attempted. */
  toolCalls: number;
  /**
   * Results of the failing batch's calls that did complete (emission order), present when the run
   * failed inside a tool batch after some calls completed; they are not part of `messages`.
   * `historyFromPartial` joins them so a continuation neither loses nor re-runs completed work.
   */
  toolResults?: Message[];
  /**
   * The assistant text a streamed turn had already delivered to the caller when it failed
   * (adversarial case 3). Not part of `messages` — it is not a completed turn and is never
   * replayed by `historyFromPartial` — but nothing the caller saw is lost.
   */
  interrupted?: Message;
  /** What the completed responses cost, when the agent has `prices` (see `Result.cost`). */
  cost?: RunCost;
  /** What compaction replaced in the context the model saw (`messages` keep the originals). */
  compactions?: Compaction[];
}

/**
 * A run failed at `stage`. `cause` is the underlying error (walk it with `errorChain`), and
 * `partial` keeps the evidence the run produced, absent when it failed before producing any.
 * The message is `golem: <stage> stage: <cause>`, prefixed once: the errors it wraps carry no
 * prefix of their own, and a nested run's `golem: ` (or a repeat of the same stage) is dropped.
 */
export class RunError extends GolemError {
  readonly stage: RunStage;
  readonly partial: PartialEvidence | undefined;
  /** The stored run's id when the agent has a run store: `agent.resumeRun(runId)` continues it. */
  runId: string | undefined;

  constructor(stage: RunStage, cause: unknown, partial?: PartialEvidence) {
    super('RunError', `${RUN_ERROR_PREFIX}${stage} stage: ${causeText(cause, stage)}`, { cause });
    this.stage = stage;
    this.partial = partial;
    this.runId = undefined;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<RunError>('RunError');
}

/** A tool call failed; names the tool and the call. */
export class ToolError extends GolemError {
  readonly toolName: string;
  readonly callId: string;

  constructor(toolName: string, callId: string, cause: unknown) {
    super('ToolError', `tool "${toolName}" (call "${callId}"): ${causeText(cause)}`, {
      cause,
    });
    this.toolName = toolName;
    this.callId = callId;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<ToolError>('ToolError');
}

/** The model called a tool that was not advertised for this run. */
export class UndeclaredToolError extends GolemError {
  readonly toolName: string;

  constructor(toolName: string) {
    super('UndeclaredToolError', 'tool was not declared for this run');
    this.toolName = toolName;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<UndeclaredToolError>('UndeclaredToolError');
}

/** The loop hit `maxIterations` model turns without a final answer. */
export class TurnLimitError extends GolemError {
  readonly turns: number;

  constructor(turns: number) {
    super('TurnLimitError', `model turn limit exceeded after ${turns} turns`);
    this.turns = turns;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<TurnLimitError>('TurnLimitError');
}

/** A budget ran out after several attempts; `cause` is the last failure. */
export class AttemptsExhaustedError extends GolemError {
  readonly attempts: number;
  readonly budget: 'model' | 'output' | 'tool';

  constructor(budget: 'model' | 'output' | 'tool', attempts: number, cause: unknown) {
    const text = causeText(cause);
    const message =
      budget === 'model'
        ? `model failed after ${attempts} attempts: ${text}`
        : budget === 'output'
          ? `output failed validation after ${attempts} attempts: ${text}`
          : `tool failed after ${attempts} attempts: ${text}`;
    super('AttemptsExhaustedError', message, { cause });
    this.attempts = attempts;
    this.budget = budget;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<AttemptsExhaustedError>('AttemptsExhaustedError');
}

/** A tool deferred its call, but the agent does not enable `deferredTools`. */
export function deferralNotEnabledError(toolName: string): ConfigError {
  return new ConfigError(
    `tool "${toolName}" deferred its call, but this agent does not enable deferredTools; set \`deferredTools: true\` to let runs pause`,
    { component: 'agent', reason: 'deferral-not-enabled', toolName },
  );
}

/**
 * The agent's configuration is invalid: a {@link ConfigError} of component `agent`, thrown by the
 * constructor (or by a run, for what only a run can check). The message says how to fix it.
 */
export function agentConfigError(message: string, options?: { cause?: unknown }): ConfigError {
  return new ConfigError(message, { component: 'agent', cause: options?.cause });
}

/**
 * A run was rejected before any model call: invalid prompt parts or history, a failing history
 * processor or instructions function, invalid deferred results. Never a `RunError`.
 */
export class RunInputError extends GolemError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('RunInputError', message, options);
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<RunInputError>('RunInputError');
}
