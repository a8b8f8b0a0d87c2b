import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RunRecord } from '../core/index';
import { decisionsOf, replayOf } from './action-bodies';
import { continueAfterResults } from './continue-middleware';
import { readJson, replyError, replyJson } from './http-io';
import { modelOverride } from './model-override';
import { replayStart } from './replay-history';
import { canResume } from './run-detail';
import type { StudioContext } from './studio-context';
import type { StudioAgent } from './studio-options';

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

/** `POST /api/runs/:id/decisions`: resumes a paused run with approvals and external results. */
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
  const found = await runAndAgent(ctx, res, id);
  if (found === undefined) return;
  const { record, agent } = found;
  if (record.status !== 'paused') {
    replyError(res, 409, `the run is ${record.status}, not paused`);
    return;
  }
  const results = {
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
  const runOwner = record.owner;
  ctx.startBackground(`decisions ${id}`, () =>
    agent.resume(id, results, {
      store: ctx.store,
      ...(runOwner !== undefined && { owner: runOwner }),
    }),
  );
  replyJson(res, 202, { runId: id });
}

/** `POST /api/runs/:id/resume`: continues an interrupted run (unheld running, or transiently failed). */
export async function resume(ctx: StudioContext, res: ServerResponse, id: string): Promise<void> {
  const found = await runAndAgent(ctx, res, id);
  if (found === undefined) return;
  const { record, agent } = found;
  if (!canResume(record, Date.now())) {
    replyError(
      res,
      409,
      `the run is ${record.status}${record.error === undefined ? '' : ` at ${record.error.stage}`}${record.lease !== undefined && record.status === 'running' ? ' and held by a live process' : ''}: it cannot be resumed`,
    );
    return;
  }
  const runOwner = record.owner;
  ctx.startBackground(`resume ${id}`, () =>
    agent.resumeRun(id, {
      store: ctx.store,
      ...(runOwner !== undefined && { owner: runOwner }),
    }),
  );
  replyJson(res, 202, { runId: id });
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
