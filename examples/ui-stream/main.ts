/**
 * UI message stream: a chat route that speaks the AI SDK UI message stream protocol (what `useChat`
 * reads) in one line — `pipeChat(agent, req, res)` on node:http. A client posts the conversation
 * as `UIMessage[]`; the run streams back as SSE chunks: a step per model turn, text parts, a tool
 * part from its first argument fragment to its output, and an approval request when the agent
 * pauses on a gated tool. Posting the conversation back with the decision resumes the run and
 * streams the continuation into the same assistant message. Offline: the model is scripted.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, defineTool } from 'golem';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { pipeChat, type UIMessageChunk } from 'golem/ui';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => (isRecord(args) && args.city === 'Lagos' ? 'sunny, 31°C' : 'unknown city'),
});

const bookTable = defineTool({
  name: 'book_table',
  description: 'Books a table at a restaurant (needs the user to approve).',
  schema: { type: 'object', properties: { place: { type: 'string' } }, required: ['place'] },
  approval: true,
  execute: (args) => `booked ${isRecord(args) ? String(args.place) : '?'} for 8pm`,
});

/** Turn 1 checks the weather, turn 2 books a table (paused for approval), turn 3 answers. */
const model = new StreamFunctionModel(async (request, emit) => {
  const results = request.messages.filter((m) => m.role === 'tool').length;
  if (results === 0) {
    await emit({ content: 'Checking the weather. ' });
    await emit({ toolCalls: [{ index: 0, id: 'w1', name: 'get_weather' }] });
    for (const piece of ['{"city":', '"Lagos"}'])
      await emit({ toolCalls: [{ index: 0, argsFragment: piece }] });
    return toolCallResponse(
      [{ id: 'w1', name: 'get_weather', args: '{"city":"Lagos"}' }],
      undefined,
      'Checking the weather. ',
    );
  }
  if (results === 1) {
    await emit({ toolCalls: [{ index: 0, id: 'b1', name: 'book_table' }] });
    await emit({ toolCalls: [{ index: 0, argsFragment: '{"place":"Terra Kulture"}' }] });
    return toolCallResponse([{ id: 'b1', name: 'book_table', args: { place: 'Terra Kulture' } }]);
  }
  for (const word of ['Sunny, ', 'so I booked ', 'the terrace.']) await emit({ content: word });
  return textResponse('Sunny, so I booked the terrace.');
});

/** One line per chunk; text deltas and argument fragments are shown on their part's line. */
function describe(chunks: readonly UIMessageChunk[]): string[] {
  const lines: string[] = [];
  let pieces: string[] = [];
  let head = '';
  const flush = (): void => {
    if (head !== '') lines.push(`${head} ${pieces.join(' + ')}`);
    head = '';
    pieces = [];
  };
  for (const chunk of chunks) {
    if (chunk.type === 'text-delta' || chunk.type === 'tool-input-delta') {
      pieces.push(JSON.stringify(chunk.type === 'text-delta' ? chunk.delta : chunk.inputTextDelta));
      continue;
    }
    flush();
    if (chunk.type === 'text-start') head = 'text';
    else if (chunk.type === 'tool-input-start')
      head = `tool-input-start ${chunk.toolName} [${chunk.toolCallId}], arguments`;
    else if (chunk.type === 'start') lines.push(`start ${chunk.messageId ?? ''}`);
    else if (chunk.type === 'tool-input-available')
      lines.push(`tool-input-available ${JSON.stringify(chunk.input)}`);
    else if (chunk.type === 'tool-output-available')
      lines.push(`tool-output-available ${JSON.stringify(chunk.output)}`);
    else if (chunk.type === 'tool-approval-request')
      lines.push(`tool-approval-request [${chunk.toolCallId}]`);
    else if (chunk.type === 'finish')
      lines.push(`finish ${chunk.finishReason ?? ''} ${JSON.stringify(chunk.messageMetadata)}`);
    else if (chunk.type !== 'text-end') lines.push(chunk.type);
  }
  flush();
  return lines;
}

/** Posts the conversation and reads the SSE answer into chunks (until `data: [DONE]`). */
async function post(url: string, messages: unknown[]): Promise<UIMessageChunk[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'chat-1', messages }),
  });
  const events = (await response.text()).split('\n\n').filter((e) => e.startsWith('data: '));
  const data = events.map((e) => e.slice('data: '.length));
  if (data.at(-1) !== '[DONE]') throw new Error('the stream did not end with [DONE]');
  return data.slice(0, -1).map((json) => JSON.parse(json) as UIMessageChunk);
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent<undefined, string, true>({
    model,
    tools: [getWeather, bookTable],
    deferredTools: true,
  });
  let ids = 0;
  // The whole chat route: parse the UIMessages, run or resume, stream the protocol back.
  const server = createServer((req, res) => {
    void pipeChat(agent, req, res, { generateId: () => `msg-${++ids}` });
  });
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chat`;
  try {
    const question = {
      id: 'u1',
      role: 'user',
      parts: [{ type: 'text', text: 'Weather in Lagos? If sunny, book a terrace table.' }],
    };
    log('POST 1: the question');
    const first = await post(url, [question]);
    for (const line of describe(first)) log(`  ${line}`);

    // What useChat holds after the first answer, with the user's approval applied (what
    // `addToolApprovalResponse({ id: 'b1', approved: true })` does in the browser).
    const start = first.find((c) => c.type === 'start');
    const finish = first.find((c) => c.type === 'finish');
    const paused = {
      id: start?.type === 'start' ? start.messageId : 'missing',
      role: 'assistant',
      metadata: finish?.type === 'finish' ? finish.messageMetadata : undefined,
      parts: [
        { type: 'step-start' },
        { type: 'text', text: 'Checking the weather. ', state: 'done' },
        {
          type: 'tool-get_weather',
          toolCallId: 'w1',
          state: 'output-available',
          input: { city: 'Lagos' },
          output: 'sunny, 31°C',
        },
        { type: 'step-start' },
        {
          type: 'tool-book_table',
          toolCallId: 'b1',
          state: 'approval-responded',
          input: { place: 'Terra Kulture' },
          approval: { id: 'b1', approved: true },
        },
      ],
    };
    log('POST 2: the conversation back, with the approval');
    for (const line of describe(await post(url, [question, paused]))) log(`  ${line}`);
  } finally {
    server.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
