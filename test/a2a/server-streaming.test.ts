/**
 * Streamed text and SSE keep-alive of our A2A server: a streaming agent's answer arrives as chunks
 * of one artifact, the task keeps the whole text, structured output and non-streaming agents
 * behave as before, resumes stream too, and a silent stream gets keep-alive comments.
 */
import { Agent, ConfigError, decodeJSON, defineTool } from 'golem';
import { FunctionModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { createA2AServer } from '../../src/a2a/server/server';
import { parseTask } from '../../src/a2a/wire-check';
import {
  call,
  closeAll,
  gate,
  getTask,
  message,
  send,
  serve,
  stream,
  type SseReader,
} from './server-harness';

afterEach(closeAll);

/** A streaming model answering `pieces` as separate text fragments. */
function piecesModel(...pieces: string[]): StreamFunctionModel {
  return new StreamFunctionModel(async (_request, emit) => {
    for (const piece of pieces) await emit({ content: piece });
    return textResponse(pieces.join(''));
  });
}

/** The frames of a stream as `kind:detail` strings, artifacts with their flags and text. */
async function summary(reader: SseReader): Promise<string[]> {
  return (await reader.rest()).map((result) => {
    if ('task' in result) return 'task';
    if ('statusUpdate' in result) {
      const update = result.statusUpdate as { status: { state: string } };
      return `status:${update.status.state.replace('TASK_STATE_', '')}`;
    }
    const update = result.artifactUpdate as {
      artifact: { artifactId: string; parts: Array<{ text?: string; data?: unknown }> };
      append?: boolean;
      lastChunk?: boolean;
    };
    const part = update.artifact.parts[0];
    const content = part?.text !== undefined ? part.text : JSON.stringify(part?.data);
    return `artifact:${content}|append=${String(update.append === true)}|last=${String(update.lastChunk === true)}`;
  });
}

test('a streaming agent publishes its text as chunks of one artifact; the task holds the whole text', async () => {
  const { url } = await serve({ agents: new Agent({ model: piecesModel('Hel', 'lo ', 'world') }) });
  const reader = await stream(url, message('greet'));
  const first = await reader.next();
  const taskId = (first as unknown as { result: { task: { id: string } } }).result.task.id;
  expect(await summary(reader)).toEqual([
    'status:WORKING',
    'artifact:Hel|append=false|last=false',
    'artifact:lo |append=true|last=false',
    'artifact:world|append=true|last=true',
    'status:COMPLETED',
  ]);
  const task = await getTask(url, taskId);
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
  expect(task.artifacts).toEqual([
    { artifactId: `${taskId}-output-0`, name: 'output', parts: [{ text: 'Hello world' }] },
  ]);
});

test('the chunks of one artifact share its id, and SendMessage returns the joined text', async () => {
  const { url } = await serve({ agents: new Agent({ model: piecesModel('a', 'b', 'c') }) });
  const reader = await stream(url, message('go'));
  const ids = new Set(
    (await reader.rest())
      .filter((r) => 'artifactUpdate' in r)
      .map((r) => (r.artifactUpdate as { artifact: { artifactId: string } }).artifact.artifactId),
  );
  expect(ids.size).toBe(1);
  const { url: other } = await serve({ agents: new Agent({ model: piecesModel('x', 'y') }) });
  const task = await send(other, message('go'));
  expect(task.artifacts?.map((a) => a.parts)).toEqual([[{ text: 'xy' }]]);
});

test('structured output streams no text chunks: one data artifact at the end', async () => {
  const model = new StreamFunctionModel(async (_request, emit) => {
    for (const piece of ['{"to', 'tal":4}']) await emit({ content: piece });
    return textResponse('{"total":4}');
  });
  const outputSchema = { type: 'object', properties: { total: { type: 'number' } } };
  const { url } = await serve({ agents: new Agent({ model, output: decodeJSON(), outputSchema }) });
  const reader = await stream(url, message('sum'));
  await reader.next();
  expect(await summary(reader)).toEqual([
    'status:WORKING',
    'artifact:{"total":4}|append=false|last=true',
    'status:COMPLETED',
  ]);
});

test('output the agent does not declare structured replaces the streamed text with its data', async () => {
  const model = new StreamFunctionModel(async (_request, emit) => {
    for (const piece of ['{"n"', ':1}']) await emit({ content: piece });
    return textResponse('{"n":1}');
  });
  const { url } = await serve({ agents: new Agent({ model, output: decodeJSON() }) });
  const reader = await stream(url, message('n'));
  const first = await reader.next();
  const taskId = (first as unknown as { result: { task: { id: string } } }).result.task.id;
  expect(await summary(reader)).toEqual([
    'status:WORKING',
    'artifact:{"n"|append=false|last=false',
    'artifact:{"n":1}|append=false|last=true',
    'status:COMPLETED',
  ]);
  expect((await getTask(url, taskId)).artifacts).toEqual([
    {
      artifactId: `${taskId}-output-0`,
      name: 'output',
      parts: [{ data: { n: 1 }, mediaType: 'application/json' }],
    },
  ]);
});

test('a non-streaming agent sends its output as one artifact, as before', async () => {
  const model = new FunctionModel(() => textResponse('plain'));
  const { url } = await serve({ agents: new Agent({ model }) });
  const reader = await stream(url, message('go'));
  await reader.next();
  expect(await summary(reader)).toEqual([
    'status:WORKING',
    'artifact:plain|append=false|last=true',
    'status:COMPLETED',
  ]);
});

test('text of several turns is replaced by the output; a resume streams through resumeStream', async () => {
  const pay = defineTool({
    name: 'pay',
    description: 'Pay',
    schema: { type: 'object', properties: {} },
    approval: true,
    execute: () => 'paid',
  });
  const model = new StreamFunctionModel(async (request, emit) => {
    if (!request.messages.some((m) => m.role === 'tool')) {
      await emit({ content: 'Paying. ' });
      await emit({ toolCalls: [{ index: 0, id: 'p1', name: 'pay' }] });
      return toolCallResponse([{ id: 'p1', name: 'pay', args: {} }], undefined, 'Paying. ');
    }
    for (const piece of ['Done', ', paid.']) await emit({ content: piece });
    return textResponse('Done, paid.');
  });
  const agent = new Agent({ model, tools: [pay], deferredTools: true });
  const { url } = await serve({ agents: agent });
  const reader = await stream(url, message('pay the bill'));
  const first = await reader.next();
  const taskId = (first as unknown as { result: { task: { id: string } } }).result.task.id;
  expect(await summary(reader)).toEqual(['status:WORKING', 'status:INPUT_REQUIRED']);
  // The paused run's interim text is not an output.
  expect((await getTask(url, taskId)).artifacts).toEqual([]);
  const resumed = await stream(url, {
    message: {
      messageId: 'm-ok',
      role: 'ROLE_USER',
      taskId,
      parts: [{ data: { approvals: { p1: true } } }],
    },
  });
  await resumed.next();
  expect(await summary(resumed)).toEqual([
    'status:WORKING',
    'artifact:Done|append=false|last=false',
    'artifact:, paid.|append=true|last=true',
    'status:COMPLETED',
  ]);
  expect((await getTask(url, taskId)).artifacts?.map((a) => a.parts)).toEqual([
    [{ text: 'Done, paid.' }],
  ]);
});

test('an answer whose streamed text differs from the output ends with the output replacing it', async () => {
  const model = new StreamFunctionModel(async (request, emit) => {
    if (!request.messages.some((m) => m.role === 'tool')) {
      await emit({ content: 'Checking. ' });
      return toolCallResponse([{ id: 'c1', name: 'look', args: {} }], undefined, 'Checking. ');
    }
    await emit({ content: 'Found it.' });
    return textResponse('Found it.');
  });
  const look = defineTool({
    name: 'look',
    description: 'Look',
    schema: { type: 'object', properties: {} },
    execute: () => 'here',
  });
  const { url } = await serve({ agents: new Agent({ model, tools: [look] }) });
  const reader = await stream(url, message('find'));
  const first = await reader.next();
  const taskId = (first as unknown as { result: { task: { id: string } } }).result.task.id;
  const frames = await summary(reader);
  expect(frames[0]).toBe('status:WORKING');
  expect(frames.at(-2)).toBe('artifact:Found it.|append=false|last=true');
  expect(frames.at(-1)).toBe('status:COMPLETED');
  expect((await getTask(url, taskId)).artifacts?.map((a) => a.parts)).toEqual([
    [{ text: 'Found it.' }],
  ]);
});

test('a silent stream gets keep-alive comments until the task settles', async () => {
  const release = gate<string>();
  const started = gate();
  const model = new StreamFunctionModel(async (_request, emit) => {
    started.open();
    const text = await release.promise;
    await emit({ content: text });
    return textResponse(text);
  });
  const { url } = await serve({ agents: new Agent({ model }), keepAliveMs: 5 });
  const reader = await stream(url, message('wait'));
  expect(await reader.next()).toMatchObject({ result: { task: {} } });
  expect(await reader.next()).toMatchObject({ result: { statusUpdate: {} } });
  await started.promise;
  let item = await reader.next();
  while (item !== undefined && !('comment' in item)) item = await reader.next();
  expect(item).toEqual({ comment: 'keep-alive' });
  release.open('done');
  const rest = (await reader.rest()).map((r) => Object.keys(r)[0]);
  expect(rest).toEqual(['artifactUpdate', 'statusUpdate']);
  const task = parseTask(await call(url, 'GetTask', { id: (await getLastTaskId(url)) ?? '' }));
  expect(task.status.state).toBe('TASK_STATE_COMPLETED');
});

/** The newest task of the endpoint (ListTasks). */
async function getLastTaskId(url: string): Promise<string | undefined> {
  const result = (await call(url, 'ListTasks', { pageSize: 1 })) as {
    tasks: Array<{ id: string }>;
  };
  return result.tasks[0]?.id;
}

test('keepAliveMs must be a non-negative integer', () => {
  const agent = new Agent({ model: piecesModel('x') });
  expect(() =>
    createA2AServer({ agents: agent, url: 'http://127.0.0.1/a2a', keepAliveMs: -1 }),
  ).toThrow(ConfigError);
});
