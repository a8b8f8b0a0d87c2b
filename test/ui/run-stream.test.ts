/**
 * Golem runs on scripted models through `createUIMessageStreamResponse`, read back by the real
 * `ai` package: its chunk schema accepts every chunk and `readUIMessageStream` builds the message.
 */
import type { UIMessage } from 'ai';
import { Agent, defineTool } from 'golem';
import type { ModelResponse } from 'golem';
import { ScriptedModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { createUIMessageStreamResponse, UI_MESSAGE_STREAM_HEADERS } from 'golem/ui';
import { bytesOf, foldMessage, parseSseBytes } from './ai-client';

const SECRET = 'sk-live-hunter2-do-not-leak';

async function readResponse(response: Response) {
  const text = await response.text();
  const chunks = await parseSseBytes(bytesOf(text));
  return { text, chunks, ...(await foldMessage(chunks)) };
}

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: () => 'sunny, 31°C',
});

function weatherModel(): StreamFunctionModel {
  return new StreamFunctionModel(async (request, emit) => {
    if (!request.messages.some((m) => m.role === 'tool')) {
      await emit({ content: 'Let me check. ' });
      await emit({ toolCalls: [{ index: 0, id: 'call-1', name: 'get_weather' }] });
      for (const piece of ['{"city":', '"Lagos"}'])
        await emit({ toolCalls: [{ index: 0, argsFragment: piece }] });
      return toolCallResponse(
        [{ id: 'call-1', name: 'get_weather', args: '{"city":"Lagos"}' }],
        { inputTokens: 10, outputTokens: 4 },
        'Let me check. ',
      );
    }
    for (const word of ['It is ', 'sunny.']) await emit({ content: word });
    return textResponse('It is sunny.', { inputTokens: 20, outputTokens: 3 });
  });
}

function partStates(snapshots: UIMessage[], toolCallId: string): string[] {
  const states: string[] = [];
  for (const snapshot of snapshots) {
    const part = snapshot.parts.find((p) => 'toolCallId' in p && p.toolCallId === toolCallId);
    const state = part !== undefined && 'state' in part ? String(part.state) : undefined;
    if (state !== undefined && states.at(-1) !== state) states.push(state);
  }
  return states;
}

test('the response carries the protocol headers and ends with [DONE]', async () => {
  const agent = new Agent({ model: new ScriptedModel([textResponse('Hi')]) });
  const response = createUIMessageStreamResponse(agent.runStream('Hello'));
  expect(response.status).toBe(200);
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS))
    expect(response.headers.get(name)).toBe(value);
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  const { text } = await readResponse(response);
  expect(text.startsWith('data: {"type":"start","messageId":')).toBe(true);
  expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
});

test('text of each turn gets its own part and the tool part goes streaming → available → output', async () => {
  const agent = new Agent({ model: weatherModel(), tools: [weather] });
  const run = agent.runStream('Weather in Lagos?');
  const { message, snapshots, errors } = await readResponse(
    createUIMessageStreamResponse(run, { messageId: 'answer-1' }),
  );
  expect(errors).toEqual([]);
  expect(message?.id).toBe('answer-1');
  expect(message?.parts).toEqual([
    { type: 'step-start' },
    { type: 'text', text: 'Let me check. ', state: 'done' },
    expect.objectContaining({
      type: 'tool-get_weather',
      toolCallId: 'call-1',
      state: 'output-available',
      input: { city: 'Lagos' },
      output: 'sunny, 31°C',
    }),
    { type: 'step-start' },
    { type: 'text', text: 'It is sunny.', state: 'done' },
  ]);
  expect(partStates(snapshots, 'call-1')).toEqual([
    'input-streaming',
    'input-available',
    'output-available',
  ]);
  expect(message?.metadata).toEqual({ usage: { inputTokens: 30, outputTokens: 7 }, pending: null });
  expect((await run.result).output).toBe('It is sunny.');
});

test('reasoning arrives as a reasoning part before the text', async () => {
  const response: ModelResponse = {
    message: { role: 'assistant', content: 'Four.', thinking: [{ text: 'Two plus two.' }] },
    usage: { inputTokens: 1, outputTokens: 1 },
    finishReason: 'stop',
  };
  const agent = new Agent({ model: new ScriptedModel([response]) });
  const { message } = await readResponse(createUIMessageStreamResponse(agent.runStream('2+2?')));
  expect(message?.parts).toEqual([
    { type: 'step-start' },
    { type: 'reasoning', id: 'reasoning-1', text: 'Two plus two.', state: 'done' },
    { type: 'text', text: 'Four.', state: 'done' },
  ]);
});

test('a failing tool ends its part in output-error; the run error names the stage, never the secret', async () => {
  const leaky = defineTool({
    name: 'query_db',
    description: 'Queries.',
    schema: { type: 'object' },
    execute: () => {
      throw new Error(`connection refused for password ${SECRET}`);
    },
  });
  const model = new ScriptedModel([toolCallResponse([{ id: 'q1', name: 'query_db' }])]);
  const agent = new Agent({ model, tools: [leaky] });
  const run = agent.runStream('Count users');
  const { text, message, errors, chunks } = await readResponse(createUIMessageStreamResponse(run));
  await expect(run.result).rejects.toMatchObject({ stage: 'tool' });
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain('hunter2');
  expect(message?.parts[1]).toMatchObject({
    type: 'tool-query_db',
    state: 'output-error',
    errorText: 'Tool "query_db" failed (Error).',
  });
  expect(errors).toEqual(['The run failed at the "tool" stage (ToolError).']);
  expect(chunks.at(-1)).toMatchObject({
    type: 'finish',
    finishReason: 'error',
    messageMetadata: { stage: 'tool', pending: null },
  });
});

test('a model failure streams an error chunk with the model stage and no provider text', async () => {
  const model = new ScriptedModel([new Error(`401 invalid key ${SECRET}`)]);
  const run = new Agent({ model }).runStream('Hi');
  const { text, errors } = await readResponse(createUIMessageStreamResponse(run));
  await expect(run.result).rejects.toMatchObject({ stage: 'model' });
  expect(errors).toEqual(['The run failed at the "model" stage (Error).']);
  expect(text).not.toContain(SECRET);
});

test('a paused run ends the message with approval requests and pending metadata', async () => {
  const gated = defineTool({
    name: 'wire',
    description: 'Wires money.',
    schema: { type: 'object' },
    approval: true,
    execute: () => 'sent',
  });
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'w1', name: 'wire', args: { amount: 900 } }]),
  ]);
  const agent = new Agent<undefined, string, true>({ model, tools: [gated], deferredTools: true });
  const { message, chunks } = await readResponse(
    createUIMessageStreamResponse(agent.runStream('Pay rent')),
  );
  expect(message?.parts[1]).toMatchObject({
    type: 'tool-wire',
    state: 'approval-requested',
    input: { amount: 900 },
    approval: { id: 'w1' },
  });
  expect(chunks.at(-1)).toMatchObject({
    type: 'finish',
    finishReason: 'tool-calls',
    messageMetadata: { pending: { approvals: ['w1'], external: [] } },
  });
});
