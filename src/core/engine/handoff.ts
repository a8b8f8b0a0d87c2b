import type { Message, ToolCall } from '../contract/message';
import { isStreamingModel } from '../contract/model';
import { GolemError, brandGuard } from '../kit/error-base';
import type { Compaction } from './compaction';
import { pairProblem } from './compaction-policies';
import { contextView, conversationStart } from './context-view';
import type { EngineConfig, HandoffRoute, HandoffTarget } from './run-config';
import type { HandoffInputFilter, HandoffRecord } from './handoff-types';
import type { RunProgress } from './run-progress';

/** A run handed off more often than its agent's `maxHandoffs` allows. Internal (stage `loop`). */
export class HandoffLimitError extends GolemError {
  readonly limit: number;

  constructor(limit: number) {
    super(
      'HandoffLimitError',
      `handoff limit exceeded: the run already handed off ${limit} times (raise maxHandoffs if the agents must pass the conversation back and forth more)`,
    );
    this.limit = limit;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<HandoffLimitError>('HandoffLimitError');
}

/** The result of the transfer call that handed off. Internal (history parses it back). */
export function transferredText(to: string): string {
  return `Transferred to ${to}. Continue as ${to}.`;
}

/** The result of every other call of a turn that handed off. Internal. */
export function notRunText(to: string): string {
  return `Not run: the conversation was handed off to ${to}.`;
}

/** The transfer call of a turn, if any (the first one wins). Internal. */
export function handoffCall<Deps>(
  config: EngineConfig<Deps>,
  calls: readonly ToolCall[],
): { call: ToolCall; route: HandoffRoute<Deps> } | undefined {
  const routes = config.handoffs;
  if (routes === undefined) return undefined;
  for (const call of calls) {
    const route = routes.get(call.name);
    if (route !== undefined) return { call, route };
  }
  return undefined;
}

/**
 * Hands the run off through `call` (the turn's transfer call): every call of the turn gets its
 * result (the transfer's says where the conversation went, the others were not run), the target's
 * instructions become the system message, and the input filter's view is recorded as a
 * compaction — all before the caller's checkpoint, so a crash after it resumes in the target with
 * the same context. Returns the target.
 */
export async function takeHandoff<Deps>(
  config: EngineConfig<Deps>,
  state: RunProgress<Deps>,
  turn: number,
  calls: readonly ToolCall[],
  picked: { call: ToolCall; route: HandoffRoute<Deps> },
): Promise<HandoffTarget<Deps>> {
  const { call, route } = picked;
  const from = state.agent;
  for (const c of calls) {
    const content = c === call ? transferredText(route.agent) : notRunText(route.agent);
    state.messages.push({ role: 'tool', content, toolCallId: c.id, toolName: c.name });
  }
  const limit = state.handoffLimit ?? config.maxHandoffs;
  if (state.handoffs.length >= limit) throw state.fail('loop', new HandoffLimitError(limit));
  let target: HandoffTarget<Deps>;
  try {
    target = route.target();
    if (state.run.onDelta !== undefined && !isStreamingModel(target.engine.model))
      throw new TypeError(
        `agent ${JSON.stringify(target.name)} cannot take over a streaming run: its model does not stream`,
      );
    if (route.inputFilter !== undefined) await filterInput(route, state, from, target.name);
    setSystem(state, await target.instructions(state.run));
  } catch (cause) {
    throw state.fail('loop', cause);
  }
  const record: HandoffRecord = { from, to: target.name, callId: call.id };
  state.handoffs.push(record);
  if (state.observed) state.emit({ kind: 'handoff', turn, ...record, call });
  return target;
}

/** Runs the route's filter on the target's view and records what it returned. */
async function filterInput<Deps>(
  route: HandoffRoute<Deps>,
  state: RunProgress<Deps>,
  from: string,
  to: string,
): Promise<void> {
  const filter = route.inputFilter as HandoffInputFilter<Deps>;
  const view = contextView(state.messages, state.compactions);
  const replacement = [
    ...(await filter({
      messages: view.messages.slice(view.start),
      from,
      to,
      deps: state.run.deps,
      signal: state.run.signal,
    })),
  ];
  const problem = replacement.some((m) => m.role === 'system')
    ? 'a system message'
    : pairProblem(replacement);
  if (problem !== undefined)
    throw new TypeError(`the input filter of the handoff to ${to} returned ${problem}`);
  const end = state.messages.length - conversationStart(state.messages);
  const compaction: Compaction = {
    policy: 'handoff',
    from: 0,
    to: end,
    turn: state.completedTurns,
    tokensBefore: 0,
    tokensAfter: 0,
    replacement,
  };
  state.compactions.push(compaction);
  state.compacted = true;
}

/** Makes `text` the run's system message (removing it for `''`), keeping positions after it. */
function setSystem<Deps>(state: RunProgress<Deps>, text: string): void {
  const has = conversationStart(state.messages) === 1;
  if (text === '') {
    if (has) {
      state.messages.shift();
      state.rememberFrom = Math.max(0, state.rememberFrom - 1);
    }
    return;
  }
  const system: Message = { role: 'system', content: text };
  if (has) state.messages[0] = system;
  else {
    state.messages.unshift(system);
    state.rememberFrom++;
  }
}

/**
 * The handoffs recorded in a run's `messages`, replayed from `root`: each completed transfer (its
 * call answered with the transfer text) moves to its target. Only the run's own turns count — the
 * last `turns` assistant messages (a run continuing a conversation starts at its own agent, not
 * where an earlier run ended); every message when `turns` is unknown. Deterministic: a continued
 * or resumed run lands in the agent that was answering, and counts the handoffs taken. Internal.
 */
export function replayHandoffs<Deps>(
  root: HandoffTarget<Deps>,
  messages: readonly Message[],
  turns: number | undefined,
): { active: HandoffTarget<Deps>; path: HandoffRecord[] } {
  let start = 0;
  if (turns !== undefined) {
    let seen = 0;
    start = messages.length;
    while (start > 0 && seen < turns) if (messages[--start]?.role === 'assistant') seen++;
  }
  let active = root;
  const path: HandoffRecord[] = [];
  for (let i = start; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role !== 'assistant') continue;
    const routes = active.engine.handoffs;
    if (routes === undefined || m.toolCalls === undefined) continue;
    for (const call of m.toolCalls) {
      const route = routes.get(call.name);
      if (route === undefined) continue;
      const answer = messages.find(
        (r, j) => j > i && r.role === 'tool' && r.toolCallId === call.id,
      );
      if (answer?.content !== transferredText(route.agent)) continue;
      const target = route.target();
      path.push({ from: active.name, to: target.name, callId: call.id });
      active = target;
      break;
    }
  }
  return { active, path };
}
