import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../model/error-base';
import { isRecord } from '../model/guards';
import type { ResolvedElicitation } from './capability-options';
import type { McpElicitationRequest } from './capability-types';
import { Deadline } from './deadline';
import type { McpSdk } from './sdk';

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/**
 * Answers the server's `elicitation/create` with the application's handler (form mode, and URL
 * mode when enabled — the SDK refuses a mode the client did not declare). The handler's signal
 * aborts when the server cancels, the deadline passes or the connection closes. An accepted answer
 * must carry an object of strings, numbers, booleans or string arrays (form mode).
 */
export function installElicitation(
  sdk: McpSdk,
  client: Client,
  server: string,
  options: ResolvedElicitation,
): void {
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
    const deadline = new Deadline(
      extra.signal,
      options.timeout,
      `elicitation for server "${server}" took longer than ${options.timeout} ms`,
    );
    let answer: unknown;
    try {
      answer = await options.handler(asked, { signal: deadline.signal });
    } catch (error) {
      throw new sdk.McpError(
        INTERNAL_ERROR,
        `golem: elicitation failed: ${describeError(deadline.settle() ?? error)}`,
      );
    } finally {
      deadline.clear();
    }
    return checkedAnswer(answer, mode, (message) => new sdk.McpError(INVALID_PARAMS, message));
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
  if (mode === 'url' || answer.content === undefined) return { action: 'accept' };
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
