/**
 * The fault matrix of issue 12: every adapter × fault (adapter timeout, connection reset, 429,
 * 500, 529, malformed frame) × {agent retry, FallbackModel} × {run, runStream} against real
 * loopback servers. Retryable faults are retried by `maxAttempts` and fall through a
 * `FallbackModel`; a malformed frame is a protocol error that neither retries nor falls back.
 * Streamed turns are single-attempt (spec §18), so under `runStream` the retry column checks the
 * classification the run ends with.
 */
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { Agent, FallbackModel, RunError, isRetryable, type StreamingModel } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';
import { anthropic } from 'golem/providers/anthropic';
import { azure } from 'golem/providers/azure';
import { bedrock } from 'golem/providers/bedrock';
import { gemini } from 'golem/providers/gemini';
import { openai } from 'golem/providers/openai';
import { openaiResponses } from 'golem/providers/openai-responses';
import { startReplayServer, type Reply, type ReplayServer } from '../../support/replay-server';
import { CREDENTIALS, EVENT_STREAM, eventFrame, frames, rawEventFrame } from './bedrock/support';

type Mode = 'run' | 'stream';
type Fault = 'timeout' | 'reset' | '429' | '500' | '529' | 'malformed';

interface AdapterCase {
  build(server: ReplayServer, timeout: number): StreamingModel & { destroy?: () => void };
  ok(mode: Mode): Reply;
  malformed(mode: Mode): Reply;
  streamType: string;
  /** The bytes sent before a reset while streaming; default a cut JSON text. */
  cutStream?: Uint8Array;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const sse = (...events: string[]): Reply => ({
  headers: { 'content-type': 'text/event-stream' },
  body: events.map((e) => `${e}\n\n`).join(''),
});
const json = (value: unknown): Reply => ({ headers: JSON_TYPE, body: JSON.stringify(value) });

const OPENAI_DONE = {
  id: 'c1',
  object: 'chat.completion',
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};
const openaiChunks = [
  `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] })}`,
  `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: OPENAI_DONE.usage })}`,
  'data: [DONE]',
];
const openaiWire = {
  ok: (mode: Mode) => (mode === 'run' ? json(OPENAI_DONE) : sse(...openaiChunks)),
  malformed: (mode: Mode) =>
    mode === 'run'
      ? { headers: JSON_TYPE, body: '{"choices": [' }
      : sse('data: {"choices": [ oops'),
  streamType: 'text/event-stream',
};

const RESPONSES_DONE = {
  id: 'resp_1',
  object: 'response',
  status: 'completed',
  model: 'm',
  output: [
    {
      type: 'message',
      id: 'msg_1',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'ok', annotations: [] }],
    },
  ],
  usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
};
const responsesEvent = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}`;
const responsesEvents = [
  responsesEvent('response.created', {
    sequence_number: 0,
    response: { ...RESPONSES_DONE, status: 'in_progress', output: [] },
  }),
  responsesEvent('response.output_text.delta', {
    sequence_number: 1,
    item_id: 'msg_1',
    output_index: 0,
    content_index: 0,
    delta: 'ok',
  }),
  responsesEvent('response.completed', { sequence_number: 2, response: RESPONSES_DONE }),
];

const ANTHROPIC_MESSAGE = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-test',
  content: [{ type: 'text', text: 'ok' }],
  stop_reason: 'end_turn',
  usage: { input_tokens: 1, output_tokens: 1 },
};
const event = (type: string, data: unknown) => `event: ${type}\ndata: ${JSON.stringify(data)}`;
const anthropicEvents = [
  event('message_start', { type: 'message_start', message: { ...ANTHROPIC_MESSAGE, content: [] } }),
  event('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  }),
  event('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'ok' },
  }),
  event('content_block_stop', { type: 'content_block_stop', index: 0 }),
  event('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn' },
    usage: { output_tokens: 1 },
  }),
  event('message_stop', { type: 'message_stop' }),
];

const GEMINI_DONE = {
  candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }],
  usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
};

const BEDROCK_DONE = {
  output: { message: { role: 'assistant', content: [{ text: 'ok' }] } },
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
};
const bedrockStream = (...parts: Uint8Array[]): Reply => ({
  headers: { 'content-type': EVENT_STREAM },
  body: frames(...parts),
});

const ADAPTERS: Record<string, AdapterCase> = {
  openai: {
    build: (s, timeout) =>
      openai({ model: 'm', preset: 'openai', apiKey: 'sk-matrix', baseURL: s.url, timeout }),
    ...openaiWire,
  },
  azure: {
    build: (s, timeout) =>
      azure({
        endpoint: s.url,
        deployment: 'd',
        apiVersion: '2024-10-21',
        apiKey: 'azure-matrix-key',
        timeout,
      }),
    ...openaiWire,
  },
  'openai-responses': {
    build: (s, timeout) =>
      openaiResponses({ model: 'm', apiKey: 'sk-matrix', baseURL: s.url, timeout }),
    ok: (mode) => (mode === 'run' ? json(RESPONSES_DONE) : sse(...responsesEvents)),
    malformed: (mode) =>
      mode === 'run'
        ? { headers: JSON_TYPE, body: '{"output": [' }
        : sse(responsesEvents[0] as string, 'event: response.output_text.delta\ndata: {oops'),
    streamType: 'text/event-stream',
  },
  anthropic: {
    build: (s, timeout) =>
      anthropic({ model: 'claude-test', apiKey: 'sk-ant-matrix', baseURL: s.url, timeout }),
    ok: (mode) => (mode === 'run' ? json(ANTHROPIC_MESSAGE) : sse(...anthropicEvents)),
    malformed: (mode) =>
      mode === 'run'
        ? { headers: JSON_TYPE, body: '{"content": [' }
        : sse(anthropicEvents[0] as string, 'event: content_block_start\ndata: {oops'),
    streamType: 'text/event-stream',
  },
  gemini: {
    build: (s, timeout) =>
      gemini({ model: 'gemini-2.5-flash', apiKey: 'gemini-matrix-key', baseURL: s.url, timeout }),
    ok: (mode) =>
      mode === 'run' ? json(GEMINI_DONE) : sse(`data: ${JSON.stringify(GEMINI_DONE)}`),
    malformed: (mode) =>
      mode === 'run'
        ? { headers: JSON_TYPE, body: '{"candidates": [' }
        : sse('data: {"candidates": ['),
    streamType: 'text/event-stream',
  },
  bedrock: {
    build: (s, timeout) =>
      bedrock({
        model: 'us.amazon.nova-micro-v1:0',
        region: 'us-east-1',
        endpoint: s.url,
        credentials: CREDENTIALS,
        client: { requestHandler: new NodeHttpHandler() },
        timeout,
      }),
    ok: (mode) =>
      mode === 'run'
        ? json(BEDROCK_DONE)
        : bedrockStream(
            eventFrame('messageStart', { role: 'assistant' }),
            eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ok' } }),
            eventFrame('messageStop', { stopReason: 'end_turn' }),
            eventFrame('metadata', { usage: BEDROCK_DONE.usage }),
          ),
    malformed: (mode) =>
      mode === 'run'
        ? { headers: JSON_TYPE, body: '{"output": [' }
        : bedrockStream(
            eventFrame('messageStart', { role: 'assistant' }),
            rawEventFrame('contentBlockDelta', '{"contentBlockIndex": 0, "delta": oops'),
          ),
    streamType: EVENT_STREAM,
    cutStream: frames(
      eventFrame('messageStart', { role: 'assistant' }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'ok' } }).subarray(
        0,
        20,
      ),
    ),
  },
};

function faultReply(adapter: AdapterCase, fault: Fault, mode: Mode): Reply {
  const type = { 'content-type': mode === 'run' ? 'application/json' : adapter.streamType };
  switch (fault) {
    case 'timeout':
      return { status: 200, headers: type, hold: true };
    case 'reset':
      return {
        status: 200,
        headers: type,
        chunks: [(mode === 'stream' ? adapter.cutStream : undefined) ?? '{"partial'],
        reset: true,
      };
    case 'malformed':
      return adapter.malformed(mode);
    default:
      return { status: Number(fault), headers: JSON_TYPE, body: '{"error":{"message":"busy"}}' };
  }
}

const RETRYABLE: Record<Fault, boolean> = {
  timeout: true,
  reset: true,
  '429': true,
  '500': true,
  '529': true,
  malformed: false,
};
const FAULTS = Object.keys(RETRYABLE) as Fault[];
/** The adapter timeout for the `timeout` fault (the held reply never answers, so only it ends the call). */
const TIMEOUT_MS = 1_000;
/** The adapter timeout everywhere else: long enough that a loaded machine never trips it. */
const SLOW_TIMEOUT_MS = 30_000;
const noSleep = (): Promise<void> => Promise.resolve();

let server: ReplayServer;
const built: { destroy?: () => void }[] = [];
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  for (const model of built.splice(0)) model.destroy?.();
  await server.close();
});

async function outcome(agent: Agent, mode: Mode): Promise<string | RunError> {
  try {
    if (mode === 'run') return (await agent.run('hi')).output;
    const stream = agent.runStream('hi');
    const deltas: unknown[] = [];
    for await (const delta of stream) deltas.push(delta);
    return (await stream.result).output;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
}

describe.each(Object.keys(ADAPTERS))('%s', (name) => {
  const adapter = ADAPTERS[name] as AdapterCase;
  const model = (fault: Fault): StreamingModel => {
    const m = adapter.build(server, fault === 'timeout' ? TIMEOUT_MS : SLOW_TIMEOUT_MS);
    built.push(m);
    return m;
  };

  describe.each(['run', 'stream'] as const)('%s', (mode) => {
    test.each(FAULTS)('%s with maxAttempts 2', async (fault) => {
      server.push(faultReply(adapter, fault, mode), adapter.ok(mode));
      const agent = new Agent({ model: model(fault), maxAttempts: 2, sleep: noSleep });
      const result = await outcome(agent, mode);
      if (mode === 'stream') {
        // Streamed turns are single-attempt (spec §18, ST-6): the classification is what counts.
        expect(RunError.is(result)).toBe(true);
        expect((result as RunError).stage).toBe('model');
        expect(isRetryable((result as RunError).cause)).toBe(RETRYABLE[fault]);
        expect(server.requests).toHaveLength(1);
      } else if (RETRYABLE[fault]) {
        expect(result).toBe('ok');
        expect(server.requests).toHaveLength(2);
      } else {
        expect(RunError.is(result)).toBe(true);
        expect((result as RunError).stage).toBe('model');
        expect(server.requests).toHaveLength(1);
      }
    });

    test.each(FAULTS)('%s under FallbackModel', async (fault) => {
      server.push(faultReply(adapter, fault, mode));
      const backup = new ScriptedModel([textResponse('backup')]);
      const agent = new Agent({ model: new FallbackModel([model(fault), backup]) });
      const result = await outcome(agent, mode);
      if (RETRYABLE[fault]) expect(result).toBe('backup');
      else {
        expect(RunError.is(result)).toBe(true);
        expect(backup.requests).toHaveLength(0);
      }
      expect(server.requests).toHaveLength(1);
    });
  });
});
