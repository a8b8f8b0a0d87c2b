/**
 * `elicitation: { pauseRun: true }`: a server's elicitation during a bridged call pauses the run
 * through the deferred-tools flow (server-everything's `trigger-elicitation-request`); the
 * user's answer is given to the client and the approved call runs again, answered from it.
 */
import { Agent, type Tool } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { connectMcp, mcpElicitationOf, type McpClient } from 'golem/mcp';
import { referenceStdio } from './reference';
import { caughtAs, named, stdioServer } from './support';
import { configErrorGuard } from '../../support/config-error';

let client: McpClient;
let tool: Tool;
beforeAll(async () => {
  client = await connectMcp({
    name: 'everything',
    transport: referenceStdio('server-everything', ['stdio']),
    elicitation: { pauseRun: true },
  });
  tool = named(await client.tools(), 'trigger-elicitation-request');
}, 30_000);
afterAll(() => client.close());

function agent() {
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'ask-1', name: tool.name, args: {} }]),
    textResponse('Thanks.'),
  ]);
  return { model, agent: new Agent({ model, tools: [tool], deferredTools: true }) };
}

test('the run pauses with the elicitation; the answer reaches the server when the approved call runs again', async () => {
  const { model, agent: asking } = agent();
  const paused = await asking.run('Register me.');
  expect(paused.pending?.external).toEqual([]);
  const [pending] = paused.pending?.approvals ?? [];
  expect(pending?.callId).toBe('ask-1');
  // The pending call survives serialisation (a stored run), and so does the question.
  const asked = mcpElicitationOf(JSON.parse(JSON.stringify(pending)) as { reason: string });
  expect(asked).toMatchObject({
    server: 'everything',
    mode: 'form',
    message: 'Please provide inputs for the following fields:',
    requestedSchema: { type: 'object', required: ['name'] },
  });

  client.answerElicitation('ask-1', { action: 'accept', content: { name: 'Ada Lovelace' } });
  const resumed = await asking.resume(paused.messages, {
    approvals: { 'ask-1': { approved: true } },
  });

  expect(resumed.output).toBe('Thanks.');
  const result = model.requests[1]?.messages.at(-1);
  expect(result).toMatchObject({ role: 'tool', toolCallId: 'ask-1' });
  expect(result?.content).toContain('- Name: Ada Lovelace');
}, 30_000);

test('a denied call declines without running the tool again', async () => {
  const { model, agent: asking } = agent();
  const paused = await asking.run('Register me.');
  const resumed = await asking.resume(paused.messages, {
    approvals: { 'ask-1': { approved: false, reason: 'the user declined' } },
  });
  expect(resumed.output).toBe('Thanks.');
  expect(model.requests[1]?.messages.at(-1)?.content).toContain('the user declined');
}, 30_000);

test('an approved re-run without an answer falls back to the handler (none here: cancel)', async () => {
  const { model, agent: asking } = agent();
  const paused = await asking.run('Register me.');
  await asking.resume(paused.messages, { approvals: { 'ask-1': { approved: true } } });
  expect(model.requests[1]?.messages.at(-1)?.content).toContain(
    'User cancelled the elicitation dialog',
  );
}, 30_000);

test('answerElicitation needs pauseRun; a malformed answer is an mcp ConfigError', async () => {
  const plain = await connectMcp({
    transport: stdioServer('stdio-server.js'),
    elicitation: { handler: () => ({ action: 'cancel' }) },
  });
  try {
    expect(
      (
        await caughtAs(configErrorGuard('mcp'), () => {
          plain.answerElicitation('a', { action: 'cancel' });
        })
      ).option,
    ).toBe('elicitation.pauseRun');
  } finally {
    await plain.close();
  }
  const wrong = await caughtAs(configErrorGuard('mcp'), () => {
    client.answerElicitation('a', { action: 'maybe' } as never);
  });
  expect(wrong.option).toBe('answer');
  const pausedWithoutHandler = await caughtAs(configErrorGuard('mcp'), () =>
    connectMcp({
      transport: stdioServer('stdio-server.js'),
      elicitation: { pauseRun: 'yes' as never },
    }),
  );
  expect(pausedWithoutHandler.option).toBe('elicitation');
}, 30_000);
