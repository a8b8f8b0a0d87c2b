/**
 * Long conversation: 200 user turns kept under a token budget by `compaction`. Each turn is one
 * run continuing the previous result (`history` and `compactions`); before every model call the
 * engine estimates the request (`contextTokens`: the provider's last usage plus an estimate of
 * what was added since) and, above `maxTokens`, clears old tool results, then summarises older
 * turns with a cheaper model, keeping the newest 4 turns verbatim. The transcript keeps every
 * original message; `result.compactions` records what each compaction replaced.
 */
import { Agent, defineTool, type Message, type ModelRequest, type Result } from 'golem';
import { FunctionModel } from 'golem/testing';

const TOPICS = ['golems', 'tokens', 'budgets', 'summaries', 'tools', 'providers', 'evidence'];

/** A lookup that returns a big document (about 900 tokens). */
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a topic up in the handbook.',
  schema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
  execute: (args) => {
    const { topic } = args as { topic: string };
    return `Handbook entry on ${topic}: ${`${topic} are described at length here. `.repeat(100)}`;
  },
});

/** What a provider would bill for some text: a little more than the 4-characters estimate. */
const billed = (text: string): number => Math.ceil(text.length / 3.6);
const sizeOf = (messages: readonly Message[]): number =>
  messages.reduce((n, m) => n + 4 + billed(JSON.stringify(m.content ?? m.toolCalls ?? '')), 0);

/** The assistant: answers, and looks the topic up on every fifth turn. Reports its usage. */
const assistant = new FunctionModel((request: ModelRequest) => {
  const last = request.messages[request.messages.length - 1] as Message;
  const topic = /about (\w+)/.exec(
    [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '',
  )?.[1];
  const message: Message =
    last.role === 'user' && /lookup/.test(last.content ?? '')
      ? {
          role: 'assistant',
          toolCalls: [
            { id: `call_${assistant.calls}`, name: 'lookup', args: JSON.stringify({ topic }) },
          ],
        }
      : { role: 'assistant', content: `Here is what I know about ${topic}. `.repeat(6).trim() };
  return {
    message,
    usage: { inputTokens: sizeOf(request.messages), outputTokens: sizeOf([message]) },
    finishReason: message.toolCalls === undefined ? 'stop' : 'tool_calls',
  };
});

/** The cheaper summariser: a short, deterministic digest of the transcript it is given. */
const summariser = new FunctionModel((request: ModelRequest) => {
  const transcript = request.messages[1]?.content ?? '';
  const asked = transcript.split('\n').filter((line) => line.startsWith('user: Turn')).length;
  const earlier = /(\d+) earlier questions/.exec(transcript)?.[1];
  const total = asked + (earlier === undefined ? 0 : Number(earlier));
  return {
    message: {
      role: 'assistant',
      content: `The user asked ${total} earlier questions about ${TOPICS.join(', ')}; all were answered.`,
    },
    usage: { inputTokens: billed(transcript), outputTokens: 30 },
    finishReason: 'stop',
  };
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const agent = new Agent({
    model: assistant,
    instructions: 'You are a patient tutor. Answer briefly.',
    tools: [lookup],
    compaction: {
      maxTokens: 4000,
      keep: { turns: 4 },
      summary: { model: summariser, maxTokens: 256 },
      // Count as the provider bills (a real tokenizer in production; see the guide).
      countTokens: billed,
    },
  });
  let last: Result<string> | undefined;
  let maxContext = 0;
  let maxBilled = 0;
  const byPolicy = new Map<string, number>();
  for (let turn = 1; turn <= 200; turn++) {
    const topic = TOPICS[turn % TOPICS.length] as string;
    const prompt =
      turn % 5 === 0
        ? `Turn ${turn}: please lookup and tell me about ${topic}.`
        : `Turn ${turn}: tell me about ${topic}.`;
    last = await agent.run(prompt, {
      ...(last !== undefined && { history: last.messages, compactions: last.compactions ?? [] }),
      observer: (event) => {
        if (event.kind === 'model_start')
          maxContext = Math.max(maxContext, event.contextTokens ?? 0);
        if (event.kind === 'model_end') maxBilled = Math.max(maxBilled, event.usage.inputTokens);
        if (event.kind === 'compaction')
          byPolicy.set(event.compaction.policy, (byPolicy.get(event.compaction.policy) ?? 0) + 1);
      },
    });
    if (turn % 25 === 0)
      log(
        `turn ${turn}: transcript ${last.messages.length} messages, last request ~${last.contextTokens ?? 0} tokens`,
      );
  }
  if (last === undefined) return;
  log(`largest request: ~${maxContext} tokens estimated, ${maxBilled} billed (budget 4000)`);
  for (const [policy, n] of byPolicy) log(`compactions by ${policy}: ${n}`);
  const records = last.compactions ?? [];
  const latest = records[records.length - 1];
  if (latest !== undefined)
    log(
      `latest: ${latest.policy} replaced positions ${latest.from}…${latest.to} (${latest.tokensBefore} → ${latest.tokensAfter} tokens)`,
    );
  // The transcript keeps every original: all 200 questions, every lookup result in full.
  const questions = last.messages.filter((m) => m.role === 'user').length;
  const results = last.messages.filter((m) => m.role === 'tool');
  const intact = results.every((m) => (m.content ?? '').startsWith('Handbook entry on'));
  log(
    `transcript: ${questions} questions, ${results.length} lookup results, originals intact: ${intact}`,
  );
  log(`summariser calls: ${summariser.calls}, assistant calls: ${assistant.calls}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
