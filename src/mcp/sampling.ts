import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../core/kit/error-base';
import { isRecord } from '../core/kit/guards';
import type { Message } from '../core/contract/message';
import type { Part } from '../core/contract/part';
import type { ResolvedSampling } from './capability-options';
import type { McpSamplingRequest } from './capability-types';
import { Deadline } from './deadline';
import type { McpSdk } from './sdk';

/** JSON-RPC codes of refusals: the spec's "user rejected", invalid params, internal error. */
const USER_REJECTED = -1;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/**
 * Serves the server's `sampling/createMessage` with a golem model: the messages become golem
 * messages (text, images as parts; audio and tool content are refused), `maxTokens` is capped,
 * `approve` decides, the model answers under the deadline (aborted when the server cancels).
 * At most `maxRequests` requests are served over the connection.
 */
export function installSampling(
  sdk: McpSdk,
  client: Client,
  server: string,
  options: ResolvedSampling,
): void {
  let served = 0;
  client.setRequestHandler(sdk.CreateMessageRequestSchema, async (request, extra) => {
    const refuse = (code: number, message: string) => new sdk.McpError(code, `golem: ${message}`);
    if (served >= options.maxRequests) {
      throw refuse(
        INVALID_PARAMS,
        `sampling refused: this client serves at most ${options.maxRequests} sampling requests per connection`,
      );
    }
    served++;
    const converted = convertRequest(request.params, server, options, (message) =>
      refuse(INVALID_PARAMS, message),
    );
    const deadline = new Deadline(
      extra.signal,
      options.timeout,
      `sampling for server "${server}" took longer than ${options.timeout} ms`,
    );
    try {
      if (options.approve !== undefined && !(await options.approve(converted))) {
        throw refuse(USER_REJECTED, 'the user rejected the sampling request');
      }
      const messages: Message[] = [
        ...(converted.systemPrompt === undefined
          ? []
          : [{ role: 'system' as const, content: converted.systemPrompt }]),
        ...converted.messages,
      ];
      const response = await options.model.generate(
        {
          messages,
          tools: [],
          settings: {
            ...options.modelSettings,
            maxTokens: converted.maxTokens,
            ...(converted.temperature !== undefined && { temperature: converted.temperature }),
            ...(converted.stopSequences !== undefined && {
              stop: [...converted.stopSequences],
            }),
          },
        },
        { signal: deadline.signal },
      );
      return resultOf(response.message.content ?? '', response.finishReason, options);
    } catch (error) {
      if (error instanceof sdk.McpError) throw error;
      const settled = deadline.settle();
      throw refuse(INTERNAL_ERROR, `sampling failed: ${describeError(settled ?? error)}`);
    } finally {
      deadline.clear();
    }
  });
}

function resultOf(
  text: string,
  finishReason: string | undefined,
  options: ResolvedSampling,
): CreateMessageResult {
  const reason = finishReason?.toLowerCase();
  const stopReason =
    reason === undefined || reason === 'stop' || reason === 'end_turn' || reason === 'endturn'
      ? 'endTurn'
      : reason === 'length' || reason === 'max_tokens' || reason === 'maxtokens'
        ? 'maxTokens'
        : reason === 'stop_sequence' || reason === 'stopsequence'
          ? 'stopSequence'
          : finishReason;
  return {
    role: 'assistant',
    content: { type: 'text', text },
    model: options.model.name ?? 'golem',
    ...(stopReason !== undefined && { stopReason }),
  };
}

/** The server's request as a {@link McpSamplingRequest}; unsupported content is refused. */
function convertRequest(
  params: CreateMessageRequest['params'],
  server: string,
  options: ResolvedSampling,
  refuse: (message: string) => Error,
): McpSamplingRequest {
  const messages = params.messages.map((message, i): Message => {
    const blocks: unknown[] = Array.isArray(message.content) ? message.content : [message.content];
    const texts: string[] = [];
    const parts: Part[] = [];
    for (const block of blocks) {
      if (!isRecord(block)) throw refuse(`message ${i} has malformed content`);
      if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
      else if (block.type === 'image' && typeof block.data === 'string') {
        parts.push({
          kind: 'image',
          data: Buffer.from(block.data, 'base64'),
          mediaType: typeof block.mimeType === 'string' ? block.mimeType : 'image/png',
        });
      } else {
        throw refuse(
          `message ${i} has ${JSON.stringify(String(block.type)).slice(0, 40)} content, which this client cannot sample (text and images only)`,
        );
      }
    }
    return {
      role: message.role,
      content: texts.join('\n'),
      ...(parts.length > 0 && { parts }),
    };
  });
  const system = options.systemPrompt === 'server' ? params.systemPrompt : undefined;
  return {
    server,
    messages,
    maxTokens: Math.min(params.maxTokens, options.maxTokens),
    ...(system !== undefined && system !== '' && { systemPrompt: system }),
    ...(params.temperature !== undefined && { temperature: params.temperature }),
    ...(params.stopSequences !== undefined && { stopSequences: params.stopSequences }),
    ...(params.modelPreferences !== undefined && { modelPreferences: params.modelPreferences }),
  };
}
