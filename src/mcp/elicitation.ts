import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../core/kit/error-base';
import { isRecord } from '../core/kit/guards';
import type { ResolvedElicitation } from './capability-options';
import type { McpElicitationRequest } from './capability-types';
import { Deadline } from './deadline';
import type { ElicitationPause } from './elicitation-pause';
import { elicitationProblems } from './elicitation-schema';
import type { McpSdk } from './sdk';

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/**
 * Answers the server's `elicitation/create` with the application's handler (form mode, and URL
 * mode when enabled — the SDK refuses a mode the client did not declare). The handler's signal
 * aborts when the server cancels, the deadline passes or the connection closes. An accepted form
 * answer must fit the server's `requestedSchema` ({@link elicitationProblems}); one that does not
 * is answered with an error naming the fields (`invalidAnswer: 'error'`, the default) or as a
 * decline (`'decline'`) — never sent as given. With `pause`, an elicitation attributable to one
 * bridged call pauses that call (or is answered from the stored answer) before the handler is asked.
 */
export function installElicitation(
  sdk: McpSdk,
  client: Client,
  server: string,
  options: ResolvedElicitation,
  pause?: ElicitationPause,
): void {
  const ask = async (asked: McpElicitationRequest, signal: AbortSignal): Promise<unknown> => {
    const handler = options.handler;
    if (handler === undefined) return { action: 'cancel' };
    const deadline = new Deadline(
      signal,
      options.timeout,
      `elicitation for server "${server}" took longer than ${options.timeout} ms`,
    );
    try {
      return await handler(asked, { signal: deadline.signal });
    } catch (error) {
      throw new sdk.McpError(
        INTERNAL_ERROR,
        `golem: elicitation failed: ${describeError(deadline.settle() ?? error)}`,
      );
    } finally {
      deadline.clear();
    }
  };
  client.setRequestHandler(sdk.ElicitRequestSchema, async (request, extra) => {
    const params = request.params;
    const mode = params.mode === 'url' ? 'url' : 'form';
    const asked: McpElicitationRequest = {
      server,
      mode,
      message: params.message,
      ...('requestedSchema' in params && { requestedSchema: params.requestedSchema }),
      ...('url' in params && { url: params.url, elicitationId: params.elicitationId }),
    };
    const answer = pause?.take(asked) ?? (await ask(asked, extra.signal));
    const invalid = (message: string) => new sdk.McpError(INVALID_PARAMS, message);
    const result = checkedAnswer(answer, mode, invalid);
    if (result.content === undefined || !('requestedSchema' in params)) return result;
    const problems = elicitationProblems(params.requestedSchema, result.content);
    if (problems.length === 0) return result;
    if (options.invalidAnswer === 'decline') return { action: 'decline' };
    throw invalid(
      `golem: the elicitation answer does not fit the requested schema: ${problems.join('; ')}`,
    );
  });
}

function checkedAnswer(
  answer: unknown,
  mode: 'form' | 'url',
  invalid: (message: string) => Error,
): ElicitResult {
  if (!isRecord(answer)) throw invalid('golem: the elicitation handler returned no answer');
  if (answer.action === 'decline' || answer.action === 'cancel') return { action: answer.action };
  if (answer.action !== 'accept') {
    throw invalid('golem: the elicitation answer must be accept, decline or cancel');
  }
  if (mode === 'url') return { action: 'accept' };
  if (answer.content === undefined) return { action: 'accept', content: {} };
  const content = answer.content;
  if (!isRecord(content)) throw invalid('golem: accepted elicitation content must be an object');
  for (const [key, value] of Object.entries(content)) {
    const ok =
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (Array.isArray(value) && value.every((item) => typeof item === 'string'));
    if (!ok)
      throw invalid(`golem: elicitation field ${JSON.stringify(key)} has an unsupported value`);
  }
  return {
    action: 'accept',
    content: content as Record<string, string | number | boolean | string[]>,
  };
}
