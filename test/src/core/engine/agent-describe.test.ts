/**
 * An agent's `description` and `describe()`: what tools that present an agent (an A2A card, a
 * studio) read of it, and the default description of a handoff to it.
 */
import { Agent, ConfigError, decodeJSON, defineTool } from 'golem';
import { Agent as AgentClass, agentFromClass, Instructions, Tool } from 'golem/decorators';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const lookup = defineTool({
  name: 'lookup',
  description: 'Finds an order',
  schema: { type: 'object', properties: { id: { type: 'string' } } },
  execute: () => 'found',
});

test('describe() reports name, description, fixed instructions, tools, handoffs, output', () => {
  const billing = new Agent({
    name: 'billing',
    description: 'Refunds and invoices.',
    model: new ScriptedModel([]),
  });
  const agent = new Agent({
    name: 'triage',
    description: 'Routes customers.',
    instructions: ['Be brief.', '', 'Route well.'],
    model: new ScriptedModel([]),
    tools: [lookup],
    handoffs: [billing],
    outputSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    output: decodeJSON(),
    deferredTools: true,
  });
  expect(agent.describe()).toEqual({
    name: 'triage',
    description: 'Routes customers.',
    instructions: 'Be brief.\n\nRoute well.',
    tools: [
      {
        name: 'lookup',
        description: 'Finds an order',
        schema: { type: 'object', properties: { id: { type: 'string' } } },
      },
    ],
    handoffs: ['billing'],
    output: { type: 'object', properties: { ok: { type: 'boolean' } } },
    streaming: true, // ScriptedModel streams
    deferredTools: true,
  });
});

test('instructions with a function are not reported; a text agent has no output schema', () => {
  const agent = new Agent({
    model: { generate: () => Promise.reject(new Error('not called')) },
    instructions: ['Fixed.', () => 'dynamic'],
  });
  expect(agent.describe()).toMatchObject({
    name: 'agent',
    description: undefined,
    instructions: undefined,
    tools: [],
    handoffs: [],
    output: undefined,
    streaming: false,
    deferredTools: false,
  });
  expect(agent.description).toBeUndefined();
});

test('a description that is not a string is a ConfigError', () => {
  expect(
    () => new Agent({ model: new ScriptedModel([]), description: 42 as unknown as string }),
  ).toThrow(ConfigError);
});

test("a handoff's default description carries the target's description", async () => {
  const billing = new Agent({
    name: 'billing',
    description: 'Refunds and invoices.',
    model: new ScriptedModel([textResponse('refunded')]),
  });
  const model = new ScriptedModel([toolCallResponse([{ id: 't', name: 'transfer_to_billing' }])]);
  const triage = new Agent({ name: 'triage', model, handoffs: [billing] });
  await triage.run('refund me');
  const spec = model.requests[0]?.tools.find((t) => t.name === 'transfer_to_billing');
  expect(spec?.description).toBe(
    'Hand the conversation over to the billing agent, which continues it from here. About it: Refunds and invoices.',
  );
});

test('@Agent({ description }) reaches the agent and its description', () => {
  @AgentClass({ description: 'Books rooms.' })
  @Instructions('You book rooms.')
  class BookingAgent {
    @Tool({ description: 'Books a room' })
    book(): string {
      return 'booked';
    }
  }
  const agent = agentFromClass(new BookingAgent(), { model: new ScriptedModel([]) });
  expect(agent.description).toBe('Books rooms.');
  expect(agent.describe()).toMatchObject({
    name: 'BookingAgent',
    description: 'Books rooms.',
    instructions: 'You book rooms.',
    tools: [{ name: 'book', description: 'Books a room' }],
  });
});
