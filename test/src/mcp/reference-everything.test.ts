/**
 * The client against the official reference server `@modelcontextprotocol/server-everything`
 * over stdio: every capability it exercises — tools, resources (list, templates, text and blob,
 * subscriptions), prompts, sampling served by a golem model (cap, approval), elicitation, roots
 * (and their change), progress and log notifications, instructions and a task tool.
 */
import { Agent, ModelRetry, type ModelRequest, type RunEvent, type Tool } from 'golem';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import {
  connectMcp,
  type McpClient,
  type McpElicitationAnswer,
  type McpElicitationRequest,
  type McpLogEvent,
  type McpSamplingRequest,
} from 'golem/mcp';
import { referenceStdio } from './reference';
import { call, caughtAs, named } from './support';
import { McpResourceTooLargeError } from '../../support/internal-errors';

const sampled: ModelRequest[] = [];
const approvals: McpSamplingRequest[] = [];
let approve = true;
const asked: McpElicitationRequest[] = [];
let answer: 'accept' | 'decline' = 'accept';
const logs: McpLogEvent[] = [];
const logWaiters: ((event: McpLogEvent) => void)[] = [];
const updates: string[] = [];
let updated: (uri: string) => void = () => undefined;

/** Resolves with the next log event matching `test`. */
function nextLog(test: (event: McpLogEvent) => boolean): Promise<McpLogEvent> {
  return new Promise((resolve) => {
    logWaiters.push((event) => {
      if (test(event)) resolve(event);
    });
  });
}

// Every test talks to a real server process: on a loaded machine a round trip can take seconds,
// so the guard against a hang is wider than jest's 5 s default (nothing here measures time).
jest.setTimeout(30_000);

let client: McpClient;
let tools: Tool[];
beforeAll(async () => {
  client = await connectMcp({
    name: 'everything',
    transport: referenceStdio('server-everything', ['stdio']),
    sampling: {
      model: new FunctionModel((request) => {
        sampled.push(request);
        return textResponse('The tide turns twice a day.');
      }),
      maxTokens: 64,
      approve: (request) => {
        approvals.push(request);
        return approve;
      },
    },
    elicitation: {
      handler: (request): McpElicitationAnswer => {
        asked.push(request);
        if (answer === 'decline') return { action: 'decline' };
        if (request.message.includes('multiple interpretations')) {
          return { action: 'accept', content: { interpretation: 'programming' } };
        }
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7 } };
      },
    },
    roots: [{ uri: 'file:///srv/workspace', name: 'workspace' }],
    onLog: (event) => {
      logs.push(event);
      for (const waiter of logWaiters) waiter(event);
    },
    onResourceUpdated: (event) => {
      updates.push(event.uri);
      updated(event.uri);
    },
  });
  tools = await client.tools();
}, 30_000);
afterAll(() => client.close());

test('the handshake: server info, instructions, and the capability-gated tools are offered', () => {
  expect(client.server).toEqual({ name: 'mcp-servers/everything', version: '2.0.0' });
  expect(client.instructions).toContain('Everything');
  const names = tools.map((t) => t.name);
  for (const name of [
    'echo',
    'get-sum',
    'trigger-sampling-request',
    'trigger-elicitation-request',
    'get-roots-list',
    'trigger-long-running-operation',
    'simulate-research-query',
  ])
    expect(names).toContain(name);
});

test('a plain tool call', async () => {
  expect(await call(named(tools, 'get-sum'), { a: 2, b: 3 })).toBe('The sum of 2 and 3 is 5.');
});

describe('resources', () => {
  test('static documents and the two templates', async () => {
    const resources = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(
      'demo://resource/static/document/instructions.md',
    );
    expect((await client.listResourceTemplates()).map((t) => t.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
  });

  test('a template read as text, and as a blob decoded to bytes', async () => {
    const [text] = await client.readResource('demo://resource/dynamic/text/3');
    expect(text?.text).toMatch(/^Resource 3: This is a plaintext resource created at /);
    const [blob] = await client.readResource('demo://resource/dynamic/blob/3');
    expect(Buffer.from(blob?.blob ?? []).toString('utf8')).toMatch(
      /^Resource 3: This is a base64 blob created at /,
    );
  });

  test('a document over maxBytes is refused', async () => {
    await caughtAs(McpResourceTooLargeError.is, () =>
      client.readResource('demo://resource/static/document/instructions.md', { maxBytes: 64 }),
    );
  });

  test('subscribe: the server reports updates of the resource; unsubscribe stops them', async () => {
    const uri = 'demo://resource/dynamic/text/1';
    await client.subscribe(uri);
    const first = new Promise<string>((resolve) => {
      updated = resolve;
    });
    await call(named(tools, 'toggle-subscriber-updates'), {}); // sends one update at once
    expect(await first).toBe(uri);
    await call(named(tools, 'toggle-subscriber-updates'), {}); // stops the 5 s updates
    await client.unsubscribe(uri);
  });
});

describe('prompts', () => {
  test('listed with their arguments; rendered with arguments', async () => {
    const prompts = await client.listPrompts();
    expect(prompts.find((p) => p.name === 'args-prompt')?.arguments).toEqual([
      { name: 'city', description: 'Name of the city', required: true },
      { name: 'state', required: false }, // the server's schema loses this description
    ]);
    const prompt = await client.getPrompt('args-prompt', { city: 'Lagos', state: 'LA' });
    expect(prompt.messages).toEqual([{ role: 'user', content: "What's weather in Lagos, LA?" }]);
  });

  test('an embedded resource becomes a tagged block of the message text', async () => {
    const prompt = await client.getPrompt('resource-prompt', {
      resourceType: 'Text',
      resourceId: '2',
    });
    expect(prompt.messages[1]?.content).toMatch(
      /^<resource uri="demo:\/\/resource\/dynamic\/text\/2">\nResource 2: This is a plaintext resource/,
    );
  });

  test('a prompt used as a run: its messages are the history', async () => {
    const prompt = await client.getPrompt('args-prompt', { city: 'Oslo' });
    const model = new ScriptedModel([textResponse('Cold.')]);
    const agent = new Agent({ model });
    const result = await agent.run('Answer briefly.', { history: [...prompt.messages] });
    expect(result.messages.slice(0, 2).map((m) => m.content)).toEqual([
      "What's weather in Oslo?",
      'Answer briefly.',
    ]);
  });
});

describe('sampling', () => {
  test('served by the golem model: system prompt, messages, and maxTokens capped at 64', async () => {
    const text = await call(named(tools, 'trigger-sampling-request'), {
      prompt: 'tides?',
      maxTokens: 500,
    });
    expect(text).toContain('The tide turns twice a day.');
    expect(text).toContain('"model": "function"');
    const request = sampled.at(-1);
    expect(request?.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: tides?' },
    ]);
    expect(request?.settings).toMatchObject({ maxTokens: 64, temperature: 0.7 });
    expect(approvals.at(-1)).toMatchObject({ server: 'everything', maxTokens: 64 });
  });

  test('a refused approval: the server gets code -1 and the tool fails for the model', async () => {
    approve = false;
    try {
      const error = await caughtAs(ModelRetry.is, () =>
        call(named(tools, 'trigger-sampling-request'), { prompt: 'x' }),
      );
      expect(error.message).toContain('the user rejected the sampling request');
    } finally {
      approve = true;
    }
  });
});

describe('elicitation', () => {
  test('the handler answers the form; the server reads the values', async () => {
    const text = await call(named(tools, 'trigger-elicitation-request'), {});
    expect(text).toContain('- Name: Ada Lovelace');
    expect(text).toContain('- Favorite Integer: 7');
    expect(asked.at(-1)).toMatchObject({
      server: 'everything',
      mode: 'form',
      message: 'Please provide inputs for the following fields:',
      requestedSchema: { type: 'object', required: ['name'] },
    });
  });

  test('a declined elicitation reaches the server as declined', async () => {
    answer = 'decline';
    try {
      expect(await call(named(tools, 'trigger-elicitation-request'), {})).toContain(
        'User declined to provide the requested information.',
      );
    } finally {
      answer = 'accept';
    }
  });
});

test('roots: the configured roots are listed; setRoots notifies the server, which lists again', async () => {
  expect(await call(named(tools, 'get-roots-list'), {})).toContain(
    '1. workspace\n   URI: file:///srv/workspace',
  );
  const relisted = nextLog(
    (e) => String(e.data) === 'Roots updated: 2 root(s) received from client',
  );
  await client.setRoots([
    { uri: 'file:///srv/workspace', name: 'workspace' },
    { uri: 'file:///srv/data', name: 'data' },
  ]);
  await relisted;
  expect(await call(named(tools, 'get-roots-list'), {})).toContain(
    '2. data\n   URI: file:///srv/data',
  );
});

test('progress notifications become tool_progress events of the run', async () => {
  const events: RunEvent[] = [];
  const agent = new Agent({
    model: new ScriptedModel([
      toolCallResponse([
        { id: 'c1', name: 'trigger-long-running-operation', args: { duration: 0.05, steps: 5 } },
      ]),
      textResponse('done'),
    ]),
    tools,
  });
  await agent.run('go', { observer: (event) => events.push(event) });
  expect(events.filter((e) => e.kind === 'tool_progress').map((e) => [e.callId, e.update])).toEqual(
    [1, 2, 3, 4, 5].map((progress) => ['c1', { kind: 'progress', progress, total: 5 }]),
  );
});

test('log messages reach onLog; setLogLevel is accepted', async () => {
  const first = nextLog((e) => /-level message|level-message/.test(String(e.data)));
  await call(named(tools, 'toggle-simulated-logging'), {});
  const event = await first;
  expect(event.server).toBe('everything');
  await call(named(tools, 'toggle-simulated-logging'), {}); // stop the 5 s logging
  await expect(client.setLogLevel('error')).resolves.toBeUndefined();
});

test('a task-only tool runs through MCP tasks; the task asks for clarification by elicitation', async () => {
  const text = await call(named(tools, 'simulate-research-query'), {
    topic: 'python',
    ambiguous: true,
  });
  expect(text).toContain('# Research Report: python (programming)');
  expect(asked.at(-1)?.message).toContain('could have multiple interpretations');
}, 30_000);
