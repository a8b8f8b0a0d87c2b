/**
 * A2A: a golem booking agent served over the Agent2Agent protocol (A2A 1.0, JSON-RPC binding),
 * called by a second golem agent and by the official SDK's client.
 *
 * The booking agent's `book_room` tool needs an approval, so every booking pauses the remote task
 * in INPUT_REQUIRED. (1) An assistant agent calls the booking agent through `connection.asTool()`:
 * its own run pauses on the remote call; the example reads which calls wait (`getTask`), approves
 * them with `connection.answer(call, …)` and resumes the assistant with the answer. (2) The
 * `@a2a-js/sdk` client streams a message to the same server, approves the booking with a data part
 * `{ approvals: { <callId>: true } }` and reads the finished task.
 *
 * Offline by default: the models are `FunctionModel`s that decide from what they receive. With
 * OPENAI_API_KEY set, the golem-to-golem round trip also runs against OpenAI (OPENAI_MODEL, default
 * gpt-4o-mini).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Role, TaskState, type Part as SdkPart } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { Agent, defineTool, type Message, type Model, type RunEvent } from 'golem';
import {
  connectA2A,
  createA2AServer,
  pendingA2ATask,
  type A2AConnection,
  type A2AServer,
  type Task,
} from 'golem/a2a';
import { openai } from 'golem/providers/openai';
import { FunctionModel, textResponse, toolCallResponse } from 'golem/testing';

type Log = (line: string) => void;

/** The last message a model received. */
function last(messages: readonly Message[]): Message | undefined {
  return messages[messages.length - 1];
}

/** The booking agent: `book_room` needs a person's approval; the agent may pause for it. */
function bookingAgent(model: Model): Agent<unknown, string, true> {
  const bookRoom = defineTool({
    name: 'book_room',
    description: 'Books one hotel room for one night.',
    schema: {
      type: 'object',
      properties: { night: { type: 'string', description: 'The night, e.g. Friday' } },
      required: ['night'],
      additionalProperties: false,
    },
    approval: true,
    execute: (args) => `booked room 12 for ${(args as { night: string }).night}`,
  });
  return new Agent({
    name: 'booking',
    description: 'Books hotel rooms. A person approves every booking.',
    instructions: 'You book hotel rooms with the book_room tool, then confirm in one sentence.',
    model,
    tools: [bookRoom],
    deferredTools: true,
  });
}

/** Offline booking model: books the night named in the request, then confirms. */
const offlineBooking = new FunctionModel(
  (request) => {
    const previous = last(request.messages);
    if (previous?.role === 'tool') return textResponse(`Done: ${previous.content ?? ''}.`);
    const prompt = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const night = /\b(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b/.exec(prompt)?.[0] ?? 'tonight';
    return toolCallResponse([{ id: `book-${night}`, name: 'book_room', args: { night } }]);
  },
  { name: 'function:booking' },
);

/** Offline assistant model: asks the booking agent, then passes its answer on. */
const offlineAssistant = new FunctionModel(
  (request) => {
    const previous = last(request.messages);
    if (previous?.role === 'tool') return textResponse(`The hotel says: ${previous.content ?? ''}`);
    const prompt = previous?.content ?? '';
    return toolCallResponse([{ id: 'ask-1', name: 'booking', args: { message: prompt } }]);
  },
  { name: 'function:assistant' },
);

/** Serves `agent` over A2A at http://127.0.0.1:<free port>/a2a. */
async function serve(
  agent: Agent<unknown, string, true>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const holder: { a2a?: A2AServer } = {};
  const http: Server = createServer((req, res) => {
    void holder.a2a?.handle(req, res);
  });
  await new Promise<void>((resolve) => {
    http.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${String((http.address() as AddressInfo).port)}/a2a`;
  const a2a = createA2AServer({ agents: agent, url });
  holder.a2a = a2a;
  return {
    url,
    close: async () => {
      a2a.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => {
        http.close(() => {
          resolve();
        });
      });
    },
  };
}

/** The calls a remote task in INPUT_REQUIRED waits for: the data part of its status message. */
function waitingCalls(task: Task): { callId: string; toolName: string; args: string }[] {
  for (const part of task.status.message?.parts ?? []) {
    if (!('data' in part)) continue;
    const pending = (part.data as { pending?: { approvals?: unknown } } | null)?.pending;
    if (Array.isArray(pending?.approvals)) {
      return pending.approvals as { callId: string; toolName: string; args: string }[];
    }
  }
  return [];
}

/** (1) An assistant agent books through the remote booking agent, approving on the way. */
async function assistantBooks(
  connection: A2AConnection,
  assistantModel: Model,
  prompt: string,
  log: Log,
): Promise<void> {
  const assistant = new Agent({
    name: 'assistant',
    instructions:
      'You help travellers. Ask the booking agent (the booking tool) to book what they ask for.',
    model: assistantModel,
    tools: [connection.asTool()],
    deferredTools: true,
  });
  const observer = (e: RunEvent): void => {
    if (e.kind !== 'tool_log') return;
    const data = e.update.data as { state?: string };
    log(`  remote status: ${String(data.state)}`);
  };
  log(`traveller: ${prompt}`);
  const paused = await assistant.run(prompt, { observer });
  const call = paused.pending?.external[0];
  const remote = call === undefined ? undefined : pendingA2ATask(call);
  if (call === undefined || remote === undefined) {
    log(`  answer: ${String(paused.output)}`);
    return;
  }
  log(`  the assistant's run paused: the remote agent needs ${remote.needs}`);
  log(`  remote question: ${remote.question.split('\n')[0] ?? ''}`);
  const task = await connection.getTask(remote.taskId);
  const approvals: Record<string, boolean> = {};
  for (const waiting of waitingCalls(task)) {
    log(`  approving ${waiting.toolName} ${waiting.args}`);
    approvals[waiting.callId] = true;
  }
  const answer = await connection.answer(call, [{ data: { approvals } }]);
  if (!answer.done) {
    log(`  the remote agent asks again: ${answer.task.question.split('\n')[0] ?? ''}`);
    return;
  }
  log(`  remote task ended: ${answer.state}`);
  const resumed = await assistant.resume(
    paused.state,
    { external: { [call.callId]: answer.result } },
    { observer },
  );
  log(`  answer: ${String(resumed.output)}`);
}

/** A text part as the SDK builds it. */
function sdkText(value: string): SdkPart {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' };
}

/** A data part as the SDK builds it. */
function sdkData(value: unknown): SdkPart {
  return {
    content: { $case: 'data', value },
    metadata: undefined,
    filename: '',
    mediaType: 'application/json',
  };
}

/** The text of SDK parts: text parts as they are, data parts as JSON. */
function sdkTextOf(parts: readonly SdkPart[]): string {
  return parts
    .map((p) =>
      p.content?.$case === 'text'
        ? p.content.value
        : p.content?.$case === 'data'
          ? JSON.stringify(p.content.value)
          : '',
    )
    .join(' ');
}

/** (2) The official SDK's client: stream a booking, approve it, read the task. */
async function sdkClientBooks(url: string, log: Log): Promise<void> {
  const client = await new ClientFactory().createFromUrl(url);
  const card = await client.getAgentCard();
  log(`sdk: card ${card.name}: ${card.skills.map((s) => s.name).join(', ')}`);
  const message = (parts: SdkPart[], taskId = '', contextId = '') => ({
    tenant: '',
    message: {
      messageId: `sdk-${String(parts.length)}-${taskId === '' ? 'new' : 'answer'}`,
      contextId,
      taskId,
      role: Role.ROLE_USER,
      parts,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  });

  let taskId = '';
  let contextId = '';
  const approvals: Record<string, boolean> = {};
  /** Approves every call a status in INPUT_REQUIRED waits for (its data part `{ pending }`). */
  const approveWaiting = (parts: readonly SdkPart[]): void => {
    for (const part of parts) {
      if (part.content?.$case !== 'data') continue;
      const pending = (part.content.value as { pending?: { approvals?: unknown } }).pending;
      for (const call of (pending?.approvals ?? []) as { callId: string; toolName: string }[]) {
        log(`sdk: the task waits for an approval of ${call.toolName}`);
        approvals[call.callId] = true;
      }
    }
  };
  for await (const event of client.sendMessageStream(
    message([sdkText('A room on Saturday, please.')]),
  )) {
    const payload = event.payload;
    if (payload?.$case === 'task') {
      taskId = payload.value.id;
      contextId = payload.value.contextId;
      log(`sdk: stream task ${TaskState[payload.value.status?.state ?? 0] ?? '?'}`);
      approveWaiting(payload.value.status?.message?.parts ?? []);
    } else if (payload?.$case === 'statusUpdate') {
      const status = payload.value.status;
      log(`sdk: stream status ${TaskState[status?.state ?? 0] ?? '?'}`);
      approveWaiting(status?.message?.parts ?? []);
    } else if (payload?.$case === 'artifactUpdate') {
      log(`sdk: stream artifact ${sdkTextOf(payload.value.artifact?.parts ?? [])}`);
    }
  }

  const answered = await client.sendMessage(message([sdkData({ approvals })], taskId, contextId));
  if ('status' in answered) {
    log(`sdk: approved: ${TaskState[answered.status?.state ?? 0] ?? '?'}`);
  }
  const task = await client.getTask({ tenant: '', id: taskId, historyLength: undefined });
  log(`sdk: GetTask ${TaskState[task.status?.state ?? 0] ?? '?'}`);
  for (const artifact of task.artifacts) {
    log(`sdk: artifact ${artifact.name}: ${sdkTextOf(artifact.parts)}`);
  }
}

export async function main(log: Log = console.log, env = process.env): Promise<void> {
  const offline = await serve(bookingAgent(offlineBooking));
  try {
    const connection = await connectA2A(offline.url);
    log(`card: ${connection.card.name} — ${connection.card.description}`);
    log(`card skills: ${connection.card.skills.map((s) => s.name).join(', ')}`);
    await assistantBooks(connection, offlineAssistant, 'Book me a room on Friday.', log);
    await sdkClientBooks(offline.url, log);
  } finally {
    await offline.close();
  }

  const apiKey = env.OPENAI_API_KEY ?? '';
  if (apiKey === '') {
    log('OPENAI_API_KEY is not set: the agents ran offline only.');
    return;
  }
  const model = openai({ model: env.OPENAI_MODEL ?? 'gpt-4o-mini', apiKey });
  log(`--- against ${model.name}`);
  const online = await serve(bookingAgent(model));
  try {
    const connection = await connectA2A(online.url);
    await assistantBooks(connection, model, 'Please book me a hotel room for Friday night.', log);
  } finally {
    await online.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
