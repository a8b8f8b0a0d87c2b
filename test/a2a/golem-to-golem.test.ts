/**
 * Golem on both sides of A2A, on loopback: a booking agent served by createA2AServer, called by a
 * second golem agent through asTool (its approval becomes INPUT_REQUIRED, which pauses the caller's
 * run until answered) and run directly through asAgent (the remote context continues across runs).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, defineTool } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { connectA2A, createA2AServer, isA2AError, pendingA2ATask, type A2AServer } from 'golem/a2a';

const open: { http: Server; a2a: A2AServer }[] = [];

afterEach(async () => {
  for (const { http, a2a } of open.splice(0)) {
    a2a.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) =>
      http.close(() => {
        resolve();
      }),
    );
  }
});

/** Serves `agent` at 127.0.0.1:<free port>/a2a; returns the base URL. */
async function serve(agent: Agent<unknown, string, boolean>): Promise<string> {
  const holder: { a2a?: A2AServer } = {};
  const http = createServer((req, res) => void holder.a2a?.handle(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}`;
  holder.a2a = createA2AServer({ agents: agent, url: `${base}/a2a` });
  open.push({ http, a2a: holder.a2a });
  return base;
}

function bookingAgent(model: ScriptedModel, booked: string[]): Agent<unknown, string, true> {
  const book = defineTool({
    name: 'book_room',
    description: 'Books a hotel room for a night',
    schema: { type: 'object', properties: { night: { type: 'string' } }, required: ['night'] },
    approval: true,
    execute: (args) => {
      booked.push((args as { night: string }).night);
      return `booked ${(args as { night: string }).night}`;
    },
  });
  return new Agent({
    name: 'booking',
    description: 'Books hotel rooms.',
    model,
    tools: [book],
    deferredTools: true,
  });
}

test('the card comes from the agent: description, and a skill per tool', async () => {
  const base = await serve(bookingAgent(new ScriptedModel([]), []));
  const connection = await connectA2A(`${base}/a2a`);
  expect(connection.card.name).toBe('booking');
  expect(connection.card.description).toBe('Books hotel rooms.');
  expect(connection.card.skills).toEqual([
    {
      id: 'book_room',
      name: 'book_room',
      description: 'Books a hotel room for a night',
      tags: ['booking'],
    },
  ]);
  expect(connection.card.defaultOutputModes).toEqual(['text/plain']);
});

test("the remote approval pauses the caller's run; answer() approves it; resume finishes", async () => {
  const booked: string[] = [];
  const base = await serve(
    bookingAgent(
      new ScriptedModel([
        toolCallResponse([{ id: 'b1', name: 'book_room', args: { night: 'Friday' } }]),
        textResponse('Room booked for Friday.'),
      ]),
      booked,
    ),
  );
  const connection = await connectA2A(`${base}/a2a`);
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'c1', name: 'booking', args: { message: 'a room on Friday' } }]),
    textResponse('Your room is booked for Friday.'),
  ]);
  const assistant = new Agent({ model, tools: [connection.asTool()], deferredTools: true });
  const paused = await assistant.run('Book me a room on Friday.');
  if (paused.pending === undefined) throw new Error('expected a pause');
  const call = paused.pending.external[0];
  if (call === undefined) throw new Error('expected a call waiting for the remote agent');
  const task = pendingA2ATask(call);
  expect(task?.needs).toBe('input');
  expect(task?.question).toContain('input required for: book_room');
  expect(booked).toEqual([]);
  // The remote server says which call waits: its id is in the question's data.
  const answer = await connection.answer(call, [{ data: { approvals: { b1: true } } }]);
  expect(answer).toEqual({
    done: true,
    result: 'Room booked for Friday.',
    state: 'TASK_STATE_COMPLETED',
  });
  expect(booked).toEqual(['Friday']);
  if (!answer.done) throw new Error('expected done');
  const resumed = await assistant.resume(paused.state, { external: { c1: answer.result } });
  expect(resumed.output).toBe('Your room is booked for Friday.');
});

test('a denied approval finishes the remote task; the answer carries its reply', async () => {
  const booked: string[] = [];
  const base = await serve(
    bookingAgent(
      new ScriptedModel([
        toolCallResponse([{ id: 'b1', name: 'book_room', args: { night: 'Friday' } }]),
        textResponse('I did not book it.'),
      ]),
      booked,
    ),
  );
  const connection = await connectA2A(`${base}/a2a`);
  const first = await connection.send('a room on Friday');
  if (!('task' in first)) throw new Error('expected a task');
  const answer = await connection.answer(
    { taskId: first.task.id, contextId: first.task.contextId, needs: 'input', question: '' },
    [{ data: { approvals: { b1: false } } }],
  );
  expect(answer).toMatchObject({ done: true, result: 'I did not book it.' });
  expect(booked).toEqual([]);
});

test('asAgent: each run continues the remote context; the remote sees only new messages', async () => {
  const remoteModel = new ScriptedModel([
    textResponse('Which night?'),
    textResponse('Friday it is.'),
  ]);
  const base = await serve(
    new Agent({ name: 'concierge', description: 'Answers guests.', model: remoteModel }),
  );
  const connection = await connectA2A(`${base}/a2a`);
  const concierge = connection.asAgent();
  const first = await concierge.run('I need a room.');
  expect(first.output).toBe('Which night?');
  const second = await concierge.run('Friday.', { history: first.messages });
  expect(second.output).toBe('Friday it is.');
  // The second remote run got the same context: the server's stored conversation is not used
  // without a store, so the remote model sees only the new prompt.
  expect(remoteModel.requests[1]?.messages.at(-1)).toMatchObject({
    role: 'user',
    content: 'Friday.',
  });
  const contextOf = (id: string | undefined): unknown =>
    (JSON.parse((id ?? '').slice('a2a:'.length)) as { contextId: unknown }).contextId;
  expect(contextOf(second.messages.at(-1)?.responseId)).toBe(
    contextOf(first.messages.at(-1)?.responseId),
  );
});

test('two answers racing for one waiting task: one resumes it, the other is refused', async () => {
  const booked: string[] = [];
  const base = await serve(
    bookingAgent(
      new ScriptedModel([
        toolCallResponse([{ id: 'b1', name: 'book_room', args: { night: 'Friday' } }]),
        textResponse('Room booked for Friday.'),
      ]),
      booked,
    ),
  );
  const connection = await connectA2A(`${base}/a2a`);
  const first = await connection.send('a room on Friday');
  if (!('task' in first)) throw new Error('expected a task');
  const task = { taskId: first.task.id, contextId: first.task.contextId };
  const approve = [{ data: { approvals: { b1: true } } }];
  const outcomes = await Promise.allSettled([
    connection.answer({ ...task, needs: 'input', question: '' }, approve),
    connection.answer({ ...task, needs: 'input', question: '' }, approve),
  ]);
  const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
  const rejected = outcomes.filter((o) => o.status === 'rejected');
  expect(fulfilled).toHaveLength(1);
  expect(rejected).toHaveLength(1);
  expect(isA2AError(rejected[0]?.reason)).toBe(true);
  expect((rejected[0]?.reason as { code: number }).code).toBe(-32004);
  expect(booked).toEqual(['Friday']);
});
