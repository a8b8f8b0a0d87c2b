import type { Message } from '../contract/message';
import type { ModelResponse } from '../contract/response';
import { addUsage } from '../contract/usage';
import type { Compaction, CompactionInput } from './compaction';
import type { CompactionPlan } from './compaction-plan';
import type { Proposal } from './compaction-policies';
import { proposeClear, proposeCustom, proposeSummary } from './compaction-policies';
import { anchorOf, contextTokens, estimateTokens, messageCounter } from './context-tokens';
import type { ContextView } from './context-view';
import { contextView, keepFrom, positionOf } from './context-view';
import { traced } from './instrumentation';
import { callScope, price } from './model-turn-events';
import { isWrappedModel } from './middleware-chain';
import type { CallScope } from '../contract/model';
import type { EngineConfig } from './run-config';
import type { RunProgress } from './run-progress';

/** The estimator of runs without a `compaction` (observed runs still report `contextTokens`). */
const defaultCount = messageCounter(estimateTokens);

/**
 * The messages of the next request: the run's history with its compactions applied, compacted
 * further (recorded, announced as a `compaction` event, traced as a span) when the estimate is
 * above the plan's `maxTokens`. Sets `state.contextTokens`. The loop calls it only when the agent
 * has a plan, the run carries compactions or is observed (else the request is a plain copy).
 * Throws what a policy throws (a summariser's failure); the caller fails the run at the `model`
 * stage. Internal.
 */
export async function prepareContext<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
): Promise<Message[]> {
  const plan = config.compaction;
  const count = plan?.count ?? defaultCount;
  let view = contextView(state.messages, state.compactions);
  let tokens = contextTokens(view.messages, state.anchor, count);
  if (plan !== undefined && tokens > plan.maxTokens) {
    for (const policy of plan.policies) {
      if (tokens <= plan.targetTokens) break;
      const keep = keepFrom(view, plan.turns);
      const input: CompactionInput = {
        messages: view.messages,
        keepFrom: keep,
        contextTokens: tokens,
        targetTokens: plan.targetTokens,
        countTokens: count,
        signal: state.run.signal,
      };
      const name = typeof policy === 'string' ? policy : policy.name;
      const turn = state.completedTurns;
      const proposal = await traced(
        state.run.trace,
        { kind: 'compaction', turn, policy: name },
        () =>
          propose(
            policy,
            plan,
            input,
            view,
            isWrappedModel(plan.summary.model) ? callScope(state, turn, 1) : undefined,
          ),
      );
      if (proposal === undefined) continue;
      const record = recordOf(proposal, view, keep, name, turn, tokens);
      if (proposal.kind === 'replace' && proposal.usage !== undefined) {
        state.usage = addUsage(state.usage, proposal.usage);
        state.requests++;
        // The summariser's call is priced like any model call of the run.
        if (typeof policy === 'string')
          price(
            config,
            state,
            { message: { role: 'assistant' }, usage: proposal.usage },
            {
              name: plan.summary.model.name,
            },
          );
      }
      state.compacted = true;
      state.compactions.push(record);
      const next = contextView(state.messages, state.compactions);
      const after = contextTokens(next.messages, undefined, count);
      // A proposal that does not shrink the context (estimate against estimate) is not applied.
      if (after >= contextTokens(view.messages, undefined, count)) {
        state.compactions.pop();
        continue;
      }
      view = next;
      state.anchor = undefined;
      tokens = after;
      record.tokensAfter = tokens;
      if (state.observed) state.emit({ kind: 'compaction', turn, compaction: record });
    }
  }
  state.contextTokens = tokens;
  state.requestLength = view.messages.length;
  return view.messages;
}

function propose(
  policy: CompactionPlan['policies'][number],
  plan: CompactionPlan,
  input: CompactionInput,
  view: ContextView,
  scope: CallScope | undefined,
): Promise<Proposal | undefined> {
  if (policy === 'clear-tool-results')
    return Promise.resolve(proposeClear(input, view.start + view.replaced, view.cleared));
  // Nothing original before the kept turns (only an earlier summary): nothing to summarise.
  if (policy === 'summarise')
    return input.keepFrom <= view.start + view.replaced
      ? Promise.resolve(undefined)
      : proposeSummary(input, view.start, plan.summary.model, plan.summary, scope);
  return proposeCustom(policy, input);
}

function recordOf(
  proposal: Proposal,
  view: ContextView,
  keep: number,
  policy: string,
  turn: number,
  tokensBefore: number,
): Compaction {
  if (proposal.kind === 'clear')
    return {
      policy,
      from: positionOf(view, proposal.first),
      to: positionOf(view, proposal.last) + 1,
      turn,
      tokensBefore,
      tokensAfter: tokensBefore,
      cleared: proposal.ids,
    };
  const record: Compaction = {
    policy,
    from: 0,
    to: positionOf(view, keep),
    turn,
    tokensBefore,
    tokensAfter: tokensBefore,
    replacement: proposal.replacement,
  };
  if (proposal.usage !== undefined) record.usage = proposal.usage;
  return record;
}

/**
 * After a response: re-anchors the estimate on the provider's usage, and records what the
 * provider compacted on its side (`contextEdits`) as a `provider` compaction. Internal.
 */
export function afterResponse<Deps>(state: RunProgress<Deps>, response: ModelResponse): void {
  const length = state.requestLength;
  if (length === undefined) return;
  state.anchor = anchorOf(response.usage, length);
  const edits = response.contextEdits;
  if (edits === undefined || edits.length === 0) return;
  const turn = state.completedTurns - 1;
  const start = state.messages[0]?.role === 'system' ? 1 : 0;
  const record: Compaction = {
    policy: 'provider',
    from: 0,
    to: Math.max(0, state.messages.length - 1 - start),
    turn,
    tokensBefore: state.contextTokens ?? 0,
    tokensAfter: response.usage.inputTokens,
    edits: edits.map((e) => ({ ...e })),
  };
  state.compactions.push(record);
  if (state.observed) state.emit({ kind: 'compaction', turn, compaction: record });
}
