/**
 * Client features against a local SDK server (servers/features-server.js): paginated resources,
 * templates and prompts, size caps, capability checks, cancellation sent to the server, progress
 * and log notifications as run events, and task tools (run through MCP tasks, or left out).
 */
import { Agent, RunError, isDeadlineExceeded, type RunEvent, type Tool } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { connectMcp, type McpClient, type McpLogEvent } from 'golem/mcp';
import { call, caught, caughtAs, named, stdioServer } from './support';

import {
  McpCapabilityError,
  McpResourceTooLargeError,
  McpTaskError,
} from '../../support/internal-errors';
import { configErrorGuard } from '../../support/config-error';
let client: McpClient;
let tools: Tool[];
const logs: McpLogEvent[] = [];
beforeAll(async () => {
  client = await connectMcp({
    name: 'features',
    transport: stdioServer('features-server.js'),
    onLog: (event) => logs.push(event),
  });
  tools = await client.tools();
});
afterAll(() => client.close());

describe('resources', () => {
  test('listing follows the cursor across pages', async () => {
    expect((await client.listResources()).map((r) => r.uri)).toEqual([
      'mem://doc/a',
      'mem://doc/b',
      'mem://doc/c',
      'mem://big',
      'mem://logo',
    ]);
    expect(await client.listResourceTemplates()).toEqual([
      { uriTemplate: 'mem://doc/{id}', name: 'doc by id' },
    ]);
  });

  test('reads text and binary (decoded) contents', async () => {
    expect(await client.readResource('mem://doc/a')).toEqual([
      { uri: 'mem://doc/a', mimeType: 'text/plain', text: 'text of mem://doc/a' },
    ]);
    const [logo] = await client.readResource('mem://logo');
    expect([...(logo?.blob ?? [])]).toEqual([137, 80, 78, 71]);
  });

  test('more than maxBytes is refused with a typed error naming the cap', async () => {
    const error = await caughtAs(McpResourceTooLargeError.is, () =>
      client.readResource('mem://big', { maxBytes: 4096 }),
    );
    expect(error.message).toBe(
      'mcp: server "features", resource "mem://big" is larger than maxBytes (4096 bytes); raise readResource({ maxBytes }) if you need it whole',
    );
  });

  test('subscribing needs resources.subscribe, which this server lacks', async () => {
    const error = await caughtAs(McpCapabilityError.is, () => client.subscribe('mem://doc/a'));
    expect([error.capability, error.method]).toEqual([
      'resources.subscribe',
      'resources/subscribe',
    ]);
  });

  test('a resource tool offers only the selected URIs and reads them capped', async () => {
    const tool = await client.resourceTool({
      select: (r) => r.uri.startsWith('mem://doc/') || r.uri === 'mem://big',
      maxBytes: 10,
    });
    expect(tool.schema).toMatchObject({
      properties: { uri: { enum: ['mem://doc/a', 'mem://doc/b', 'mem://doc/c', 'mem://big'] } },
    });
    expect(await call(tool, { uri: 'mem://doc/b' })).toBe(
      'text of mem://doc/b'.slice(0, 10) + '\n\n[mcp: result truncated at 10 bytes]',
    );
    await expect(call(tool, { uri: 'mem://logo' })).rejects.toThrow('uri must be one of');
  });

  test('resource context renders the resources for the instructions', async () => {
    const context = client.resourceContext(['mem://doc/a', 'mem://logo']);
    expect(await context()).toBe(
      '<resource uri="mem://doc/a">\ntext of mem://doc/a\n</resource>\n<resource uri="mem://logo">\n[binary: image/png, 4 bytes]\n</resource>',
    );
  });
});

describe('prompts', () => {
  test('listing follows the cursor; arguments keep their required flag', async () => {
    const prompts = await client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments[0]?.required])).toEqual([
      ['p1', true],
      ['p2', false],
      ['p3', false],
    ]);
  });

  test('a prompt becomes golem messages (images as parts) and text', async () => {
    const prompt = await client.getPrompt('p1', { topic: 'tides' });
    expect(prompt.messages.map((m) => [m.role, m.content, m.parts?.length ?? 0])).toEqual([
      ['user', 'Tell me about tides.', 0],
      ['assistant', 'Gladly.', 0],
      ['user', '', 1],
    ]);
    expect(prompt.text).toBe('Tell me about tides.\n\nGladly.');
  });

  test('non-string arguments are refused before sending', async () => {
    const error = await caughtAs(configErrorGuard('mcp'), () =>
      client.getPrompt('p1', { topic: 3 } as unknown as Record<string, string>),
    );
    expect(error.option).toBe('arguments.topic');
  });
});

test('a call timeout sends notifications/cancelled: the server sees its request aborted', async () => {
  const [wait] = await client.tools({ include: ['wait_cancel'], timeout: 200 });
  const error = await caught(() => call(wait as Tool, {}));
  expect(isDeadlineExceeded(error)).toBe(true);
  expect(error.message).toBe('mcp: server "features" did not answer wait_cancel within 200 ms');
  const seen = JSON.parse(await call(named(tools, 'cancellations'), {})) as { reason: string }[];
  expect(seen).toHaveLength(1);
  expect(seen[0]?.reason).toContain('did not answer wait_cancel within 200 ms');
});

test('the run signal cancels the call on the server too', async () => {
  const controller = new AbortController();
  const agent = new Agent({
    model: new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'wait_cancel', args: {} }])]),
    tools,
  });
  const run = agent.run('wait', {
    signal: controller.signal,
    // Aborts once the server reports it is waiting, so the request has surely reached it.
    observer: (event) => {
      if (event.kind === 'tool_progress') controller.abort(new Error('user left'));
    },
  });
  await expect(run).rejects.toBeInstanceOf(RunError);
  const seen = JSON.parse(await call(named(tools, 'cancellations'), {})) as { reason: string }[];
  expect(seen.at(-1)?.reason).toContain('user left');
});

test('progress and log notifications become tool_progress / tool_log run events', async () => {
  const events: RunEvent[] = [];
  const agent = new Agent({
    model: new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'steps', args: {} }]),
      textResponse('ok'),
    ]),
    tools,
  });
  await agent.run('go', { observer: (event) => events.push(event) });
  const updates = events.filter((e) => e.kind === 'tool_progress' || e.kind === 'tool_log');
  expect(updates.map((e) => [e.kind, e.callId, e.update])).toEqual([
    ['tool_progress', 'c1', { kind: 'progress', progress: 1, total: 3, message: 'step 1' }],
    ['tool_progress', 'c1', { kind: 'progress', progress: 2, total: 3, message: 'step 2' }],
    ['tool_progress', 'c1', { kind: 'progress', progress: 3, total: 3, message: 'step 3' }],
    ['tool_log', 'c1', { kind: 'log', level: 'warning', logger: 'steps', data: 'halfway' }],
  ]);
  expect(logs).toContainEqual({
    server: 'features',
    level: 'warning',
    logger: 'steps',
    data: 'halfway',
  });
});

describe('task tools', () => {
  test('a task-only tool runs through MCP tasks; its statuses are progress events', async () => {
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: new ScriptedModel([
        toolCallResponse([{ id: 'c1', name: 'square', args: { n: 7 } }]),
        textResponse('49'),
      ]),
      tools,
    });
    const result = await agent.run('square 7', { observer: (event) => events.push(event) });
    expect(result.messages[2]?.content).toBe('squared: 49');
    const progress = events.filter((e) => e.kind === 'tool_progress');
    expect(progress.at(-1)?.update).toMatchObject({ kind: 'progress', message: 'task completed' });
  });

  test('a failed task is a McpTaskError from the server side', async () => {
    const error = await caughtAs(McpTaskError.is, () => call(named(tools, 'broken_job'), { n: 1 }));
    expect([error.side, error.toolName, typeof error.taskId]).toEqual([
      'server',
      'broken_job',
      'string',
    ]);
    expect(error.message).toContain('failed: disk full');
  });

  test('a task that never ends is bounded by the call timeout (and cancelled)', async () => {
    const [endless] = await client.tools({ include: ['endless_job'], timeout: 150 });
    const error = await caught(() => call(endless as Tool, { n: 1 }));
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(error.message).toBe('mcp: server "features" did not answer endless_job within 150 ms');
  });

  test('taskTools: "exclude" leaves task tools out; including one names the local refusal', async () => {
    const names = (await client.tools({ taskTools: 'exclude' })).map((t) => t.name);
    expect(names).not.toContain('square');
    expect(names).toContain('echo');
    const error = await caughtAs(McpTaskError.is, () =>
      client.tools({ include: ['square'], taskTools: 'exclude' }),
    );
    expect(error.side).toBe('local');
  });

  test('a server without task support: its task-only tool is never offered; including it blames the server', async () => {
    const plain = await connectMcp({ transport: stdioServer('features-server.js', 'no-tasks') });
    try {
      expect((await plain.tools()).map((t) => t.name)).toEqual(['echo']);
      const error = await caughtAs(McpTaskError.is, () => plain.tools({ include: ['slow_job'] }));
      expect(error.side).toBe('server');
      expect(error.message).toContain('does not declare task support');
    } finally {
      await plain.close();
    }
  });
});
