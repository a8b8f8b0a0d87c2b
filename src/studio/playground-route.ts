import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord } from '../core/kit/guards';
import { pipeChat, type ChatAgent, type NodeRequestLike } from '../ui/index';
import { readJson, replyError } from './http-io';
import { modelOverride } from './model-override';
import type { StudioContext } from './studio-context';

/**
 * `POST /api/playground/:agent`: golem/ui's chat stream for the agent, with body `{ messages,
 * model?, settings? }` (a studio model by name; temperature and maxTokens as model settings).
 * Its runs are stored under the studio's owner.
 */
export async function playground(
  ctx: StudioContext,
  req: IncomingMessage,
  res: ServerResponse,
  name: string,
): Promise<void> {
  const agent = ctx.agents.get(name);
  if (agent === undefined) {
    replyError(res, 404, `agent "${name}" is not registered`);
    return;
  }
  const body = await readJson(req, res);
  if (body === undefined) return;
  const value = body.value;
  if (!isRecord(value)) {
    replyError(res, 400, 'the body must be { messages, model?, settings? }');
    return;
  }
  const modelName = value.model;
  if (modelName !== undefined && typeof modelName !== 'string') {
    replyError(res, 400, 'model must be a name');
    return;
  }
  const model = modelName === undefined ? undefined : ctx.models.get(modelName);
  if (modelName !== undefined && model === undefined) {
    replyError(res, 400, `model "${modelName}" is not one of the studio's models`);
    return;
  }
  const settings = isRecord(value.settings) ? value.settings : {};
  const { temperature, maxTokens } = settings;
  if (temperature !== undefined && typeof temperature !== 'number') {
    replyError(res, 400, 'settings.temperature must be a number');
    return;
  }
  if (
    maxTokens !== undefined &&
    (typeof maxTokens !== 'number' || !Number.isSafeInteger(maxTokens))
  ) {
    replyError(res, 400, 'settings.maxTokens must be an integer');
    return;
  }
  const middleware = model === undefined ? [] : [modelOverride(model)];
  const chat: ChatAgent = {
    store: ctx.store,
    name: agent.name,
    runStream: (prompt, opts) =>
      agent.runStream(prompt, {
        ...opts,
        middleware: [...middleware, ...(opts?.middleware ?? [])],
      }),
    resumeStream: (history, results, opts) =>
      agent.resumeStream(history, results, {
        ...opts,
        middleware: [...middleware, ...(opts?.middleware ?? [])],
      }),
  };
  const request: NodeRequestLike = {
    body: value,
    [Symbol.asyncIterator]: () => (req as AsyncIterable<unknown>)[Symbol.asyncIterator](),
  };
  await pipeChat(chat, request, res, {
    store: ctx.store,
    ...(ctx.owner !== undefined && { owner: ctx.owner }),
    run: {
      modelSettings: {
        ...(temperature !== undefined && { temperature }),
        ...(maxTokens !== undefined && { maxTokens }),
      },
    },
  });
}
