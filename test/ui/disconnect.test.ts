/**
 * A client that goes away mid-answer, over a real node:http server: the response closes, the
 * stream is cancelled, the run stops (the model call sees its signal abort) and the run's error
 * keeps the evidence of what was done before.
 */
import { Agent, defineTool, type RunStream } from 'golem';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { pipeChat, pipeUIMessageStreamToResponse } from 'golem/ui';
import { serve } from './chat-client';

jest.setTimeout(20_000);

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks up.',
  schema: { type: 'object' },
  execute: () => 'found it',
});

/** A model that calls `lookup`, then streams a first word and hangs until its call is aborted. */
function hangingModel(aborted: () => void): StreamFunctionModel {
  return new StreamFunctionModel(async (request, emit, options) => {
    if (!request.messages.some((m) => m.role === 'tool'))
      return toolCallResponse([{ id: 'l1', name: 'lookup' }]);
    await emit({ content: 'Partial ' });
    await new Promise<never>((_resolve, reject) => {
      const signal = options.signal;
      if (signal === undefined) return;
      signal.addEventListener('abort', () => {
        aborted();
        reject(signal.reason as Error);
      });
    });
    return textResponse('never');
  });
}

/** Posts `body`, reads the SSE text until it contains `marker`, then drops the connection. */
async function readUntilThenLeave(url: string, body: unknown, marker: string): Promise<string> {
  const leave = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    signal: leave.signal,
    headers: { 'content-type': 'application/json' },
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(marker)) {
    const next = await reader.read();
    if (next.done) throw new Error(`stream ended before ${marker}: ${text}`);
    text += decoder.decode(next.value, { stream: true });
  }
  leave.abort();
  return text;
}

test('pipeUIMessageStreamToResponse: a client that leaves stops the run and its evidence is kept', async () => {
  let wasAborted!: () => void;
  const aborted = new Promise<void>((resolve) => {
    wasAborted = resolve;
  });
  const agent = new Agent({
    model: hangingModel(() => {
      wasAborted();
    }),
    tools: [lookup],
  });
  let run!: RunStream<string>;
  let piped!: Promise<void>;
  const server = await serve((_req, res) => {
    run = agent.runStream('Find it');
    piped = pipeUIMessageStreamToResponse(run, res);
  });
  try {
    const seen = await readUntilThenLeave(server.url, {}, 'Partial ');
    expect(seen).toContain('"type":"tool-output-available","toolCallId":"l1","output":"found it"');
    await aborted;
    await piped;
    const error: unknown = await run.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'RunError' });
    const partial = (
      error as {
        partial?: {
          messages: { role: string; content?: string }[];
          interrupted?: { content?: string };
        };
      }
    ).partial;
    expect(partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(partial?.messages[2]?.content).toBe('found it');
    expect(partial?.interrupted?.content).toBe('Partial ');
  } finally {
    await server.close();
  }
});

test('pipeChat: a client that leaves aborts the run', async () => {
  let wasAborted!: () => void;
  const aborted = new Promise<void>((resolve) => {
    wasAborted = resolve;
  });
  const agent = new Agent({
    model: hangingModel(() => {
      wasAborted();
    }),
    tools: [lookup],
  });
  let piped!: Promise<void>;
  const server = await serve((req, res) => {
    piped = pipeChat(agent, req, res);
  });
  try {
    const body = {
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Find it' }] }],
    };
    await readUntilThenLeave(server.url, body, 'Partial ');
    await aborted;
    await expect(piped).resolves.toBeUndefined();
  } finally {
    await server.close();
  }
});
