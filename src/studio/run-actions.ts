import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeferredResults, RunRecord } from '../core/index';
import { cancelOf, decisionsOf, replayOf } from './action-bodies';
import { continueAfterResults } from './continue-middleware';
import { readJson, replyError, replyJson } from './http-io';
import { modelOverride } from './model-override';
import { replayStart } from './replay-history';
import { canResume } from './run-detail';
import type { StudioContext } from './studio-context';
import type { StudioAgent } from './studio-options';
import { cancellable, queueRefusal, queueStateOf } from './studio-queue';

/** The agent that ran `record`, or undefined after answering 404 (not registered). */
function agentFor(
  ctx: StudioContext,
  res: ServerResponse,
  record: RunRecord,
): StudioAgent | undefined {
  const agent = ctx.agents.get(record.agent);
  if (agent === undefined)
    replyError(res, 404, `agent "${record.agent}" is not registered with the studio`);
  return agent;
}

/** The run `id` and its agent, or undefined after answering 404. */
async function runAndAgent(
  ctx: StudioContext,
  res: ServerResponse,
  id: string,
): Promise<{ record: RunRecord; agent: StudioAgent } | undefined> {
  const record = await ctx.findRun(id);
  if (record === undefined) {
    replyError(res, 404, 'run not found');
    return undefined;
  }
  const agent = agentFor(ctx, res, record);
  return agent === undefined ? undefined : { record, agent };
}

/**
 * `POST /api/runs/:id/decisions`: resumes a paused run with approvals and external results — on
 * the studio's queue (a worker resumes it) when it has one, else with the run's agent.
 */
export async function decide(
  ctx: StudioContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const body = await readJson(req, res);
  if (body === undefined) return;
  const decisions = decisionsOf(body.value);
  if (typeof decisions === 'string') {
    replyError(res, 400, decisions);
    return;
  }
  const record = await ctx.findRun(id);
  if (record === undefined) {
    replyError(res, 404, 'run not found');
    return;
  }
  if (record.status !== 'paused') {
    replyError(res, 409, `the run is ${record.status}, not paused`);
    return;
  }
  const results: DeferredResults = {
    ...(decisions.approvals !== undefined && {
      approvals: Object.fromEntries(
        Object.entries(decisions.approvals).map(([k, v]) => [
          k,
          { approved: v.approved, ...(v.reason !== undefined && { reason: v.reason }) },
        ]),
      ),
    }),
    ...(decisions.external !== undefined && { external: { ...decisions.external } }),
  };
  const { queue } = ctx;
  if (queue !== undefined) {
    if (await queueCall(res, () => queue.decide(id, results, scope(ctx))))
      replyJson(res, 202, { runId: id });
    return;
  }
  const agent = agentFor(ctx, res, record);
  if (agent === undefined) return;
  const runOwner = record.owner;
  ctx.startBackground(`decisions ${id}`, () =>
    agent.resume(id, results, {
      store: ctx.store,
      ...(runOwner !== undefined && { owner: runOwner }),
    }),
  );
  replyJson(res, 202, { runId: id });
}

/**
 * `POST /api/runs/:id/resume`: continues an interrupted run (unheld running, or transiently
 * failed) — recovered on the studio's queue when it has one, else with the run's agent.
 */
export async function resume(ctx: StudioContext, res: ServerResponse, id: string): Promise<void> {
  const record = await ctx.findRun(id);
  if (record === undefined) {
    replyError(res, 404, 'run not found');
    return;
  }
  const { queue } = ctx;
  const agent = queue === undefined ? agentFor(ctx, res, record) : undefined;
  if (queue === undefined && agent === undefined) return;
  if (!canResume(record, Date.now())) {
    replyError(
      res,
      409,
      `the run is ${record.status}${record.error === undefined ? '' : ` at ${record.error.stage}`}${record.lease !== undefined && record.status === 'running' ? ' and held by a live process' : ''}: it cannot be resumed`,
    );
    return;
  }
  if (queue !== undefined) {
    const state = await queueStateOf(queue, id, ctx.owner);
    if (state?.state === 'cancelled') {
      replyError(res, 409, 'the run was cancelled: it cannot be resumed');
      return;
    }
    if (await queueCall(res, () => queue.recover(id, scope(ctx))))
      replyJson(res, 202, { runId: id });
    return;
  }
  if (agent === undefined) return;
  const runOwner = record.owner;
  ctx.startBackground(`resume ${id}`, () =>
    agent.resumeRun(id, {
      store: ctx.store,
      ...(runOwner !== undefined && { owner: runOwner }),
    }),
  );
  replyJson(res, 202, { runId: id });
}

/**
 * `POST /api/runs/:id/cancel` (`{ reason? }`): cancels a run on the studio's queue — a queued one
 * is withdrawn, a running one aborted by its worker. 404 without a queue, for an unknown run or
 * another owner's; 409 for a run the queue does not carry or that is past cancelling.
 */
export async function cancel(
  ctx: StudioContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const { queue } = ctx;
  if (queue === undefined) {
    replyError(res, 404, 'no queue configured: only a studio with a run queue cancels runs');
    return;
  }
  const body = await readJson(req, res);
  if (body === undefined) return;
  const asked = cancelOf(body.value);
  if (typeof asked === 'string') {
    replyError(res, 400, asked);
    return;
  }
  const state = await queueStateOf(queue, id, ctx.owner);
  if (state === undefined) {
    if ((await ctx.findRun(id)) === undefined) replyError(res, 404, 'run not found');
    else replyError(res, 409, 'the run is not on the queue: only a queued run can be cancelled');
    return;
  }
  if (!cancellable(state)) {
    replyError(
      res,
      409,
      `the run is ${state.state}: only a queued or running run can be cancelled`,
    );
    return;
  }
  const done = await queueCall(res, () =>
    queue.cancel(id, {
      ...(asked.reason !== undefined && { reason: asked.reason }),
      ...scope(ctx),
    }),
  );
  if (done === undefined) return;
  if (done.value === 'finished')
    replyError(res, 409, 'the run finished before it could be cancelled');
  else replyJson(res, 202, { runId: id });
}

/** The owner scope of the studio's queue calls. */
function scope(ctx: StudioContext): { owner?: string } {
  return ctx.owner === undefined ? {} : { owner: ctx.owner };
}

/**
 * Runs a queue call: its result, or undefined after answering a queue refusal with its status
 * (404, 409, 400) and message; other failures propagate (an internal error).
 */
async function queueCall<T>(
  res: ServerResponse,
  work: () => Promise<T>,
): Promise<{ value: T } | undefined> {
  try {
    return { value: await work() };
  } catch (error) {
    const refusal = queueRefusal(error);
    if (refusal === undefined) throw error;
    replyError(res, refusal.status, refusal.message);
    return undefined;
  }
}

/** `POST /api/runs/:id/replay`: a new run from a checkpoint of the run, with edits. */
export async function replay(
  ctx: StudioContext,
  req: IncomingMessage,
  res: ServerResponse,
  id: string,
): Promise<void> {
  const body = await readJson(req, res);
  if (body === undefined) return;
  const edits = replayOf(body.value);
  if (typeof edits === 'string') {
    replyError(res, 400, edits);
    return;
  }
  const model = edits.model === undefined ? undefined : ctx.models.get(edits.model);
  if (edits.model !== undefined && model === undefined) {
    replyError(res, 400, `model "${edits.model}" is not one of the studio's models`);
    return;
  }
  const found = await runAndAgent(ctx, res, id);
  if (found === undefined) return;
  const { record, agent } = found;
  const start = replayStart(record.messages, edits);
  if ('refused' in start) {
    replyError(res, 400, start.refused);
    return;
  }
  const runId = `replay-${randomUUID()}`;
  const runOwner = record.owner;
  const middleware = [
    ...(model === undefined ? [] : [modelOverride(model)]),
    ...(start.prompt === '' && start.parts.length === 0 ? [continueAfterResults()] : []),
  ];
  ctx.startBackground(`replay ${id}`, () =>
    agent.run(start.prompt, {
      history: start.history,
      ...(start.parts.length > 0 && { parts: start.parts }),
      runId,
      store: ctx.store,
      ...(runOwner !== undefined && { owner: runOwner }),
      ...(middleware.length > 0 && { middleware }),
    }),
  );
  replyJson(res, 202, { runId });
}
