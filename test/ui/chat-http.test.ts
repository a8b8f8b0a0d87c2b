/**
 * A Golem chat route (`pipeChat` on node:http) driven by the AI SDK's own chat client over real
 * HTTP: turns, tool parts, approvals answered in the client and resumed (in memory and through a
 * run store), external results, and malformed requests.
 */
import type { ToolUIPart, UIMessage } from 'ai';
import { Agent, defineTool, deferExternal } from 'golem';
import { memoryStore } from 'golem/stores/memory';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { pipeChat, type ChatAgent } from 'golem/ui';
import { NodeChat, serve } from './chat-client';

jest.setTimeout(20_000);

const deleted: string[] = [];
const deleteFile = defineTool({
  name: 'delete_file',
  description: 'Deletes a file.',
  schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  approval: true,
  execute: (args) => {
    deleted.push((args as { path: string }).path);
    return `deleted ${(args as { path: string }).path}`;
  },
});
const askUser = defineTool({
  name: 'ask_user',
  description: 'Asks the user.',
  schema: { type: 'object' },
  execute: () => {
    throw deferExternal('the browser answers');
  },
});

async function withChat<D, O>(
  agent: ChatAgent<D, O>,
  body: (chat: NodeChat) => Promise<void>,
): Promise<void> {
  const server = await serve((req, res) => void pipeChat(agent, req, res));
  try {
    await body(new NodeChat(`${server.url}/chat`));
  } finally {
    await server.close();
  }
}

const toolParts = (message: UIMessage | undefined) =>
  (message?.parts ?? []).filter((p) => p.type.startsWith('tool-')) as ToolUIPart[];

beforeEach(() => {
  deleted.length = 0;
});

test('two turns: each answer streams into its own message and the second run sees the first', async () => {
  const model = new ScriptedModel([textResponse('Hello!'), textResponse('Still here.')]);
  await withChat(new Agent({ model }), async (chat) => {
    await chat.sendMessage({ text: 'Hi' });
    await chat.sendMessage({ text: 'Are you there?' });
    expect(chat.status).toBe('ready');
    expect(
      chat.messages.map((m) => [
        m.role,
        m.parts
          .filter((p) => p.type === 'text')
          .map((p) => (p as { text: string }).text)
          .join(''),
      ]),
    ).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello!'],
      ['user', 'Are you there?'],
      ['assistant', 'Still here.'],
    ]);
    expect(model.requests[1]?.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello!'],
      ['user', 'Are you there?'],
    ]);
  });
});

test('an approval asked in the browser resumes the run into the same assistant message', async () => {
  const model = new ScriptedModel([
    toolCallResponse(
      [{ id: 'c1', name: 'delete_file', args: { path: 'a.txt' } }],
      undefined,
      'Deleting.',
    ),
    textResponse('Deleted a.txt.'),
  ]);
  const agent = new Agent<undefined, string, true>({
    model,
    tools: [deleteFile],
    deferredTools: true,
  });
  await withChat(agent, async (chat) => {
    await chat.sendMessage({ text: 'Delete a.txt' });
    const paused = chat.lastMessage;
    expect(toolParts(paused)).toMatchObject([
      {
        type: 'tool-delete_file',
        toolCallId: 'c1',
        state: 'approval-requested',
        input: { path: 'a.txt' },
        approval: { id: 'c1' },
      },
    ]);
    expect(paused?.metadata).toMatchObject({ pending: { approvals: ['c1'], external: [] } });
    expect(deleted).toEqual([]);

    const continued = chat.finished();
    await chat.addToolApprovalResponse({ id: 'c1', approved: true });
    await continued;

    expect(chat.errors).toEqual([]);
    expect(chat.messages).toHaveLength(2);
    const answer = chat.lastMessage;
    expect(answer?.id).toBe(paused?.id);
    expect(toolParts(answer)).toMatchObject([
      {
        toolCallId: 'c1',
        state: 'output-available',
        output: 'deleted a.txt',
        approval: { approved: true },
      },
    ]);
    expect(answer?.parts.at(-1)).toMatchObject({ type: 'text', text: 'Deleted a.txt.' });
    expect(answer?.metadata).toMatchObject({ pending: null });
    expect(deleted).toEqual(['a.txt']);
  });
});

test('a denial ends the tool part as output-denied and the model hears the reason', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'delete_file', args: { path: 'b.txt' } }]),
    textResponse('Kept b.txt.'),
  ]);
  const agent = new Agent<undefined, string, true>({
    model,
    tools: [deleteFile],
    deferredTools: true,
  });
  await withChat(agent, async (chat) => {
    await chat.sendMessage({ text: 'Delete b.txt' });
    const continued = chat.finished();
    await chat.addToolApprovalResponse({ id: 'c1', approved: false, reason: 'keep it' });
    await continued;
    expect(toolParts(chat.lastMessage)).toMatchObject([
      { toolCallId: 'c1', state: 'output-denied' },
    ]);
    expect(deleted).toEqual([]);
    const seen = model.requests[1]?.messages.find((m) => m.role === 'tool');
    expect(seen?.content).toMatch(/denied: keep it/);
  });
});

test('with a run store the decision resumes the stored run by the runId in the metadata', async () => {
  const store = memoryStore();
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'delete_file', args: { path: 'c.txt' } }]),
    textResponse('Done.'),
  ]);
  const agent = new Agent<undefined, string, true>({
    model,
    tools: [deleteFile],
    deferredTools: true,
    store,
  });
  await withChat(agent, async (chat) => {
    await chat.sendMessage({ text: 'Delete c.txt' });
    const runId = (chat.lastMessage?.metadata as { runId?: string }).runId;
    expect(typeof runId).toBe('string');
    expect((await store.getRun(runId as string))?.status).toBe('paused');
    const continued = chat.finished();
    await chat.addToolApprovalResponse({ id: 'c1', approved: true });
    await continued;
    expect(chat.errors).toEqual([]);
    expect((await store.getRun(runId as string))?.status).toBe('completed');
    expect(chat.lastMessage?.metadata).toMatchObject({ runId, pending: null });
    expect(deleted).toEqual(['c.txt']);
  });
});

test('an external call is answered in the browser with addToolOutput and resumes the run', async () => {
  const model = new ScriptedModel([
    toolCallResponse([
      { id: 'c1', name: 'delete_file', args: { path: 'd.txt' } },
      { id: 'c2', name: 'ask_user', args: { question: 'Sure?' } },
    ]),
    textResponse('Both settled.'),
  ]);
  const agent = new Agent<undefined, string, true>({
    model,
    tools: [deleteFile, askUser],
    deferredTools: true,
  });
  await withChat(agent, async (chat) => {
    await chat.sendMessage({ text: 'Clean up' });
    expect(toolParts(chat.lastMessage).map((p) => [p.toolCallId, p.state])).toEqual([
      ['c1', 'approval-requested'],
      ['c2', 'input-available'],
    ]);
    await chat.addToolOutput({ tool: 'ask_user', toolCallId: 'c2', output: 'yes, go ahead' });
    const continued = chat.finished();
    await chat.addToolApprovalResponse({ id: 'c1', approved: true });
    await continued;
    expect(chat.errors).toEqual([]);
    expect(toolParts(chat.lastMessage).map((p) => [p.toolCallId, p.state])).toEqual([
      ['c1', 'output-available'],
      ['c2', 'output-available'],
    ]);
    const results = model.requests[1]?.messages
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results).toEqual(['deleted d.txt', 'yes, go ahead']);
  });
});

test('a malformed request gets HTTP 400 naming the culprit, and no run starts', async () => {
  const model = new ScriptedModel([]);
  const server = await serve((req, res) => void pipeChat(new Agent({ model }), req, res));
  try {
    const post = (body: string) =>
      fetch(`${server.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const unknownPart = await post(
      JSON.stringify({ messages: [{ id: 'u', role: 'user', parts: [{ type: 'video' }] }] }),
    );
    expect(unknownPart.status).toBe(400);
    expect(await unknownPart.json()).toEqual({
      error: 'messages[0].parts[0]: part type "video" is not accepted in a user message',
      path: 'messages[0].parts[0]',
    });
    const notJson = await post('{');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ path: 'body' });
    expect(model.calls).toBe(0);
  } finally {
    await server.close();
  }
});
