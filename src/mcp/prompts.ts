import { showValue } from '../core/kit/error-base';
import { isRecord } from '../core/kit/guards';
import type { Message } from '../core/contract/message';
import type { Part } from '../core/contract/part';
import { SDK_TIMEOUT } from './deadline';
import { listAll } from './listing';
import { fail } from './option-checks';
import type { McpSession } from './session';

/** A prompt the server lists (untrusted text). */
export interface McpPromptInfo {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: readonly { name: string; description?: string; required: boolean }[];
}

/**
 * A prompt rendered by the server: `messages` as golem messages (use them as a run's `history`
 * or prompt) and `text`, all message texts joined (use it as instructions). Untrusted text.
 */
export interface McpPrompt {
  readonly name: string;
  readonly description?: string;
  readonly messages: readonly Message[];
  readonly text: string;
}

/** Every prompt of the server (following pagination). */
export async function listPrompts(session: McpSession): Promise<McpPromptInfo[]> {
  session.requireCapability('prompts', 'prompts/list');
  const listed = await listAll(session, 'prompts/list', async (params, signal) => {
    const result = await session.client.listPrompts(params, { signal, timeout: SDK_TIMEOUT });
    return { items: result.prompts, nextCursor: result.nextCursor };
  });
  return listed.map((p) =>
    Object.freeze({
      name: p.name,
      ...(p.title !== undefined && { title: p.title }),
      ...(p.description !== undefined && { description: p.description }),
      arguments: (p.arguments ?? []).map((a) => ({
        name: a.name,
        ...(a.description !== undefined && { description: a.description }),
        required: a.required === true,
      })),
    }),
  );
}

/** `prompts/get` with string arguments, converted to golem messages. */
export async function getPrompt(
  session: McpSession,
  name: string,
  args: Readonly<Record<string, string>> = {},
  options: { signal?: AbortSignal } = {},
): Promise<McpPrompt> {
  if (typeof name !== 'string' || name === '') fail('name', 'must be a prompt name');
  if (!isRecord(args)) fail('arguments', 'must be an object of string values');
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') {
      fail(
        `arguments.${key}`,
        `must be a string (MCP prompt arguments are strings), got ${showValue(value)}`,
      );
    }
  }
  session.requireCapability('prompts', 'prompts/get');
  const result = await session.request(
    'prompts/get',
    (signal) =>
      session.client.getPrompt({ name, arguments: { ...args } }, { signal, timeout: SDK_TIMEOUT }),
    { signal: options.signal },
  );
  const messages = result.messages.map((m) => promptMessage(m.role, m.content));
  return Object.freeze({
    name,
    ...(result.description !== undefined && { description: result.description }),
    messages,
    text: messages
      .map((m) => m.content ?? '')
      .filter((t) => t !== '')
      .join('\n\n'),
  });
}

/** One prompt message: text as content, images as parts, other content summarised in the text. */
function promptMessage(role: 'user' | 'assistant', content: unknown): Message {
  const item = isRecord(content) ? content : {};
  const parts: Part[] = [];
  let text: string;
  switch (item.type) {
    case 'text':
      text = typeof item.text === 'string' ? item.text : '';
      break;
    case 'image':
      text = '';
      if (typeof item.data === 'string') {
        parts.push({
          kind: 'image',
          data: Buffer.from(item.data, 'base64'),
          mediaType: typeof item.mimeType === 'string' ? item.mimeType : 'image/png',
        });
      }
      break;
    case 'resource': {
      const resource = isRecord(item.resource) ? item.resource : {};
      const uri = typeof resource.uri === 'string' ? resource.uri : '';
      text =
        typeof resource.text === 'string'
          ? `<resource uri=${JSON.stringify(uri)}>\n${resource.text}\n</resource>`
          : `[resource: ${uri}, binary]`;
      break;
    }
    case 'resource_link':
      text = `[resource link: ${typeof item.uri === 'string' ? item.uri : ''}]`;
      break;
    default:
      text = `[mcp: unsupported ${typeof item.type === 'string' ? item.type : 'unknown'} content]`;
  }
  return { role, content: text, ...(parts.length > 0 && { parts }) };
}
