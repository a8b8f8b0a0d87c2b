/**
 * Every recorded streaming Anthropic fixture goes through `stream`: the assembled response equals
 * the fixture's `*.expected.json`, the deltas add up to it, the request body equals the recorded
 * one for the same input, and the response is identical to what `generate` returns for a message
 * with the same content.
 */
import type { ModelRequest } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { wireThinking } from '../../../support/wire-response';
import { recordedView } from '../../recorded-view';
import { DeltaLog, jsonReply, modelFor, sseReply } from '../../../src/providers/anthropic/support';
import {
  chunksToSse,
  expectedOf,
  expectedResponse,
  fixtureJson,
  fixtureText,
  messageBodyOf,
} from './recorded';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const ask = (text: string, settings: ModelRequest['settings'] = {}): ModelRequest => ({
  messages: [{ role: 'user', content: text }],
  tools: [],
  settings,
});

/**
 * The a05 capture is a text file whose last frame (`message_stop`) lacks the blank line that
 * ends an SSE event (the API always sends it). Replayed byte-exact it still completes, because
 * its stop reason and final usage arrived (tested in replays.test.ts); replayed as the server sent
 * it, it is a complete response.
 */
function terminated(text: string): string {
  return text.endsWith('\n\n') ? text : `${text}\n`;
}

const thinking1024 = {
  maxTokens: 4096,
  thinking: { mode: 'enabled' as const, budgetTokens: 1024 },
};

interface StreamCase {
  name: string;
  body: () => string;
  model: string;
  request: ModelRequest;
  recorded?: string;
}

const cases: StreamCase[] = [
  {
    name: 'a02-text.stream',
    body: () => fixtureText('a02-text.stream.sse'),
    model: 'claude-sonnet-4-5',
    request: ask('What is 1+1? Answer with just the number.', { maxTokens: 32000 }),
    recorded: 'a02-text.stream.request.json',
  },
  {
    name: 'a04-parallel-tool-calls.stream',
    body: () => fixtureText('a04-parallel-tool-calls.stream.sse'),
    model: 'claude-sonnet-4-0',
    request: ask(
      'Please retrieve the secrets associated with each of these passwords: mellon,radiance',
    ),
  },
  {
    name: 'a05-tool-call-truncated-max-tokens.stream',
    body: () => terminated(fixtureText('a05-tool-call-truncated-max-tokens.stream.sse')),
    model: 'claude-3-7-sonnet-20250219',
    request: ask('Write a tax guide to taxes.txt'),
  },
  {
    name: 'a06-tool-call-no-args.stream',
    body: () => chunksToSse(fixtureText('a06-tool-call-no-args.stream.chunks.txt')),
    model: 'claude-sonnet-4-5',
    request: ask('Update the issue list'),
  },
  {
    name: 'a09-thinking.stream',
    body: () => fixtureText('a09-thinking.stream.sse'),
    model: 'claude-sonnet-4-0',
    request: ask('How do I cross the street?', thinking1024),
    recorded: 'a09-thinking.stream.request.json',
  },
  {
    name: 'a10-redacted-thinking.stream',
    body: () => fixtureText('a10-redacted-thinking.stream.sse'),
    model: 'claude-sonnet-4-5-20250929',
    request: ask(
      'ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB',
      thinking1024,
    ),
    recorded: 'a10-redacted-thinking.stream.request.json',
  },
];

describe.each(cases)('$name', (c) => {
  test('the assembled response equals the expected normalised result', async () => {
    server.push(sseReply(c.body()));
    const response = await modelFor(server, { model: c.model }).stream(c.request, () => undefined);
    expect(recordedView(response, { provider: 'anthropic', model: c.model })).toEqual(
      expectedResponse(c.name),
    );
  });

  test('the deltas add up to the text, tool calls and thinking of the response', async () => {
    server.push(sseReply(c.body()));
    const log = new DeltaLog();
    const response = await modelFor(server, { model: c.model }).stream(c.request, log.handler);
    const e = expectedOf(c.name);
    expect(log.text).toBe(e.text);
    expect(log.toolCalls.map((call) => ({ ...call, args: parsedOrRaw(call.args) }))).toEqual(
      e.tool_calls.map((call, index) => ({
        index,
        id: call.id,
        name: call.name,
        args: call.args === null ? call.args_raw_unparseable : call.args,
      })),
    );
    expect(log.thinking.map((t) => ({ text: t.text, signature: t.signature }))).toEqual(
      (response.message.thinking ?? [])
        .filter((b) => b.redacted === undefined)
        .map((b) => ({ text: b.text, signature: b.signature })),
    );
  });

  test('the request is a stream request with the streaming accept header', async () => {
    server.push(sseReply(c.body()));
    await modelFor(server, { model: c.model }).stream(c.request, () => undefined);
    const request = server.requests[0];
    expect(request?.headers.accept).toBe('text/event-stream');
    expect((request?.json as { stream?: unknown }).stream).toBe(true);
    if (c.recorded !== undefined) expect(request?.json).toEqual(fixtureJson(c.recorded));
  });
});

/** Args fragments are the provider's raw text: compare them parsed (none at all means {}). */
function parsedOrRaw(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

test.each(cases.filter((c) => !c.name.startsWith('a05')))(
  '$name: the streamed response is identical to generate for the same content',
  async (c) => {
    server.push(sseReply(c.body()), jsonReply(messageBodyOf(c.name)));
    const model = modelFor(server, { model: c.model });
    const streamed = await model.stream(c.request, () => undefined);
    const generated = await model.generate(c.request);
    expect(streamed).toEqual(generated);
  },
);

test('a04: tool calls arrive as a first fragment {index, id, name} then args fragments', async () => {
  server.push(sseReply(fixtureText('a04-parallel-tool-calls.stream.sse')));
  const log = new DeltaLog();
  await modelFor(server).stream(ask('secrets'), log.handler);
  const fragments = log.deltas.flatMap((d) => d.toolCalls ?? []);
  expect(fragments).toEqual([
    { index: 0, id: 'toolu_015cUijgET79LXjgeYQerN2h', name: 'secret_retrieval_tool' },
    { index: 0, argsFragment: '{"passwo' },
    { index: 0, argsFragment: 'rd": "mellon' },
    { index: 0, argsFragment: '"}' },
    { index: 1, id: 'toolu_01XZTimPexA7h3EVKesnKt5T', name: 'secret_retrieval_tool' },
    { index: 1, argsFragment: '{"passw' },
    { index: 1, argsFragment: 'ord' },
    { index: 1, argsFragment: '": "radian' },
    { index: 1, argsFragment: 'ce"}' },
  ]);
});

test('a09: thinking fragments precede the text, and the signature arrives as its own fragment', async () => {
  server.push(sseReply(fixtureText('a09-thinking.stream.sse')));
  const log = new DeltaLog();
  await modelFor(server).stream(ask('cross', thinking1024), log.handler);
  const firstContent = log.deltas.findIndex((d) => d.content !== undefined);
  const lastThinking = log.deltas.map((d) => d.thinking !== undefined).lastIndexOf(true);
  expect(lastThinking).toBeLessThan(firstContent);
  const signatures = log.deltas.flatMap((d) => d.thinking ?? []).filter((t) => t.signature);
  expect(signatures).toEqual([
    { index: 0, signature: expectedOf('a09-thinking.stream').reasoning[0]?.signature },
  ]);
});

test('a10: redacted blocks arrive whole in content_block_start and produce no delta', async () => {
  server.push(sseReply(fixtureText('a10-redacted-thinking.stream.sse')));
  const log = new DeltaLog();
  const response = await modelFor(server).stream(ask('magic', thinking1024), log.handler);
  expect(log.deltas.filter((d) => d.thinking !== undefined)).toEqual([]);
  expect(response.message.thinking?.map((b) => Object.keys(wireThinking(b)))).toEqual([
    ['redacted'],
    ['redacted'],
  ]);
});

test('a05: the call cut off by max_tokens keeps its raw partial args and finish reason length', async () => {
  server.push(sseReply(terminated(fixtureText('a05-tool-call-truncated-max-tokens.stream.sse'))));
  const response = await modelFor(server).stream(ask('tax guide'), () => undefined);
  expect(response.finishReason).toBe('length');
  expect(response.message.toolCalls?.[0]?.args).toBe(
    expectedOf('a05-tool-call-truncated-max-tokens.stream').tool_calls[0]?.args_raw_unparseable,
  );
});

test('a06: a tool call whose only args fragment is empty has args {} and no args delta', async () => {
  server.push(sseReply(chunksToSse(fixtureText('a06-tool-call-no-args.stream.chunks.txt'))));
  const log = new DeltaLog();
  const response = await modelFor(server).stream(ask('update'), log.handler);
  expect(response.message.toolCalls).toEqual([
    { id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', args: '{}' },
  ]);
  expect(log.deltas.flatMap((d) => d.toolCalls ?? [])).toEqual([
    { index: 0, id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList' },
  ]);
});
