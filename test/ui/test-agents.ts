/**
 * The agents the golem/ui stream tests run: a weather check with a streamed tool call, a tool
 * that fails, and a model that hangs until its call is aborted.
 */
import { Agent, defineTool } from 'golem';
import { ScriptedModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

const usage = { inputTokens: 3, outputTokens: 5 };

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather of a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: () => 'sunny',
});

/**
 * Text, a streamed `get_weather` call, its output, then an answer of `words`. `ahead`: the answer's
 * fragments are emitted without waiting for each to be taken, so the run runs ahead of its reader.
 */
export function weatherAgent(options: { words?: readonly string[]; ahead?: boolean } = {}): Agent {
  const words = options.words ?? ['It ', 'is ', 'sunny.'];
  const model = new StreamFunctionModel(async (request, emit) => {
    if (!request.messages.some((m) => m.role === 'tool')) {
      await emit({ content: 'Let me check. ' });
      await emit({ toolCalls: [{ index: 0, id: 'call-1', name: 'get_weather' }] });
      for (const piece of ['{"city":', '"Lagos"}'])
        await emit({ toolCalls: [{ index: 0, argsFragment: piece }] });
      return toolCallResponse(
        [{ id: 'call-1', name: 'get_weather', args: '{"city":"Lagos"}' }],
        usage,
        'Let me check. ',
      );
    }
    for (const word of words)
      if (options.ahead === true) void emit({ content: word });
      else await emit({ content: word });
    return textResponse(words.join(''), usage);
  });
  return new Agent({ model, tools: [weather] });
}

/** One call of a tool that throws. */
export function failingToolAgent(): Agent {
  const broken = defineTool({
    name: 'broken',
    description: 'Fails.',
    schema: { type: 'object' },
    execute: () => {
      throw new Error('nope');
    },
  });
  const model = new ScriptedModel([toolCallResponse([{ id: 'b1', name: 'broken' }])]);
  return new Agent({ model, tools: [broken] });
}

/** A model that streams a first word, then waits until its call is aborted (`aborted` is told). */
export function hangingAgent(aborted: () => void = () => undefined): Agent {
  const model = new StreamFunctionModel(async (_request, emit, callOptions) => {
    await emit({ content: 'Partial ' });
    await new Promise<never>((_resolve, reject) => {
      callOptions.signal?.addEventListener('abort', () => {
        aborted();
        reject(callOptions.signal?.reason as Error);
      });
    });
    return textResponse('never');
  });
  return new Agent({ model });
}
