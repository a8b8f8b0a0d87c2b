import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { ScriptedModel, TestModel, textResponse, toolCallResponse } from 'golem/testing';
import { createAgent } from '../src/agent';

test('offline, TestModel calls the forecast tool with the example city', async () => {
  const result = await createAgent(new TestModel()).run('What is the weather in Lagos?');
  const tool = result.messages.find((message) => message.role === 'tool');
  assert.equal(tool?.toolName, 'forecast');
  assert.equal(tool?.content, 'Lagos: 31°C');
  assert.equal(result.toolCalls, 1);
});

test('a scripted model drives the conversation turn by turn', async () => {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'forecast', args: { city: 'Oslo' } }]),
    textResponse('It is 20°C in Oslo.'),
  ]);
  const result = await createAgent(model).run('How warm is Oslo?');
  assert.equal(result.output, 'It is 20°C in Oslo.');
  assert.equal(result.messages.find((message) => message.role === 'tool')?.content, 'Oslo: 20°C');
});
