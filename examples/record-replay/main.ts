/**
 * Record once, replay offline: the fixtures in ./fixtures (written by hand from the OpenAI,
 * Anthropic and Gemini documented wire formats, in golem's fixture format) are served to the real
 * adapters by `replayFetch`, with no network and no key. A request that no longer matches its
 * recording fails with `ReplayMismatchError`. With `OPENAI_API_KEY` set, it also records a fresh
 * exchange with `recordingFetch` (key redacted) and replays it; without the key it sends nothing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, defineTool, hasKind } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { gemini } from 'golem/providers/gemini';
import { openai } from 'golem/providers/openai';
import { recordingFetch, replayFetch } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const FIXTURES = join(__dirname, 'fixtures');

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: (args) =>
    isRecord(args) && typeof args.city === 'string' ? `sunny, 31°C in ${args.city}` : 'unknown',
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  log('Replaying hand-written fixtures offline (no key, nothing sent):');

  // 1. A whole agent run, streamed: a tool call, then the answer (two recorded requests).
  const openaiReplay = replayFetch(join(FIXTURES, 'openai-weather-stream.json'));
  const agent = new Agent({
    model: openai({ model: 'gpt-4o-mini', apiKey: 'replay-only', fetch: openaiReplay }),
    instructions: 'Answer in one short sentence. Use the tool for weather questions.',
    tools: [getWeather],
  });
  const stream = agent.runStream('What is the weather in Lagos?');
  let fragments = 0;
  for await (const delta of stream) if (delta.content !== undefined) fragments++;
  const result = await stream.result;
  openaiReplay.assertDone(); // every recorded exchange was requested, and each matched
  const call = result.messages.flatMap((m) => m.toolCalls ?? [])[0];
  log(`openai, ${openaiReplay.served} streamed requests: ${result.output}`);
  log(`  tool call ${call?.name ?? '-'}(${call?.args ?? ''}), ${fragments} text fragments`);
  log(`  usage: ${result.usage.inputTokens} in, ${result.usage.outputTokens} out`);

  // 2. One generate call on the Anthropic Messages API.
  const sky = {
    messages: [
      { role: 'system' as const, content: 'Answer in one short sentence.' },
      { role: 'user' as const, content: 'Why is the sky blue?' },
    ],
    tools: [],
  };
  const claude = (fetch: typeof openaiReplay) =>
    anthropic({ model: 'claude-sonnet-4-5', apiKey: 'replay-only', fetch });
  const answer = await claude(replayFetch(join(FIXTURES, 'anthropic-messages.json'))).generate(sky);
  log(`anthropic: ${answer.message.content ?? ''} (finish: ${answer.finishReason ?? '-'})`);

  // 3. A Gemini stream, re-split every 7 bytes to exercise the SSE parser: same text.
  const geminiReplay = replayFetch(join(FIXTURES, 'gemini-stream.json'), { split: 7 });
  const pieces: string[] = [];
  const river = await gemini({
    model: 'gemini-2.5-flash',
    apiKey: 'replay-only',
    fetch: geminiReplay,
  }).stream(
    { messages: [{ role: 'user', content: 'Name one river in Africa.' }], tools: [] },
    (d) => {
      if (d.content !== undefined) pieces.push(d.content);
    },
  );
  log(`gemini, split every 7 bytes: ${river.message.content ?? ''} (${pieces.length} fragments)`);

  // 4. The request changed: the replay says where.
  const strict = replayFetch(join(FIXTURES, 'anthropic-messages.json'));
  const changed = {
    ...sky,
    messages: [
      { role: 'system' as const, content: 'Answer in one short sentence.' },
      { role: 'user' as const, content: 'Why is the sea blue?' },
    ],
  };
  await claude(strict)
    .generate(changed)
    .catch(() => undefined); // the adapter reports a transport error; the replay keeps the cause
  try {
    strict.assertDone();
  } catch (error) {
    if (!hasKind(error, 'ReplayMismatchError')) throw error;
    const { path, recorded, received } = error as typeof error & Record<string, unknown>;
    log(`changed prompt: ReplayMismatchError at ${String(path)}`);
    log(`  recorded ${String(recorded)}, received ${String(received)}`);
  }

  await recordIfKeyed(log);
}

/** Records one real exchange when OPENAI_API_KEY is set, then replays the file offline. */
async function recordIfKeyed(log: (line: string) => void): Promise<void> {
  const apiKey = process.env.OPENAI_API_KEY ?? '';
  if (apiKey === '') {
    log('OPENAI_API_KEY is not set: recording skipped, nothing was sent.');
    log('  Set it to record a real exchange into a fixture (the key is never written).');
    return;
  }
  const file = join(mkdtempSync(join(tmpdir(), 'golem-fixtures-')), 'openai-live.json');
  const recorder = recordingFetch({ file });
  const request = { messages: [{ role: 'user' as const, content: 'Reply with: pong' }], tools: [] };
  const live = await openai({ model: 'gpt-4o-mini', apiKey, fetch: recorder }).generate(request);
  await recorder.settled();
  const replayed = await openai({
    model: 'gpt-4o-mini',
    apiKey: 'replay-only',
    fetch: replayFetch(file),
  }).generate(request);
  log(`recorded ${file} (key written: ${String(readFileSync(file, 'utf8').includes(apiKey))})`);
  log(
    `replayed offline, same answer: ${String(replayed.message.content === live.message.content)}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
