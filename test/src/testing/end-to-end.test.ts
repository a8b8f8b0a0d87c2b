import { Agent, defineTool } from 'golem';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';

const weather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: (args) => `sunny in ${(args as { city: string }).city}`,
});

describe('test doubles driving an agent', () => {
  test('TD-4 end-to-end agent run records a first request ending with the prompt and a second ending with the tool result', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'get_weather', args: { city: 'Lagos' } }]),
      textResponse('It is sunny in Lagos.'),
    ]);

    const result = await new Agent({ model, tools: [weather] }).run('Weather in Lagos?');

    expect(result.output).toBe('It is sunny in Lagos.');
    const [first, second] = model.requests;
    expect(first?.messages.at(-1)).toEqual({ role: 'user', content: 'Weather in Lagos?' });
    expect(second?.messages.at(-1)).toEqual({
      role: 'tool',
      content: 'sunny in Lagos',
      toolCallId: 'call-1',
      toolName: 'get_weather',
    });
  });

  test('a TestModel runs an agent offline with no script', async () => {
    const model = new TestModel();

    const result = await new Agent({ model, tools: [weather] }).run('Weather?');

    expect(result.output).toBe('{"get_weather":"sunny in a"}');
    expect(model.calls).toBe(2);
  });
});
