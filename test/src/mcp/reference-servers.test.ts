/**
 * The client against the official filesystem and memory reference servers over stdio, and
 * server-everything over Streamable HTTP: the filesystem server's confinement as the model sees
 * it through golem's bridged tools (outside paths and symlink escapes refused, fed back as
 * corrections; roots from the client replace the allowed directories), the memory server's graph
 * round trip, and the HTTP transport with sampling, elicitation, progress, resources and prompts.
 */
import { mkdtempSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, type RunEvent, type Tool } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { connectMcp, type McpClient } from 'golem/mcp';
import { referenceStdio, startEverythingHttp, type ReferenceHttp } from './reference';
import { call, named } from './support';

describe('server-filesystem', () => {
  let root: string;
  let workspace: string;
  let other: string;
  let client: McpClient;
  let tools: Tool[];
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'golem-fs-')));
    workspace = join(root, 'workspace');
    other = join(root, 'other');
    mkdirSync(workspace);
    mkdirSync(join(root, 'secret'));
    mkdirSync(other);
    writeFileSync(join(workspace, 'notes.txt'), 'meeting at noon');
    writeFileSync(join(root, 'secret', 'key.txt'), 'TOP-SECRET-KEY');
    writeFileSync(join(other, 'readme.txt'), 'other root');
    symlinkSync(join(root, 'secret'), join(workspace, 'escape'));
    client = await connectMcp({
      name: 'fs',
      transport: referenceStdio('server-filesystem', [workspace]),
    });
    tools = await client.tools({ prefix: 'fs' });
  }, 30_000);
  afterAll(async () => {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('a run reads inside the workspace; outside paths and a symlink escape come back as corrections', async () => {
    const read = (id: string, path: string) =>
      toolCallResponse([{ id, name: 'fs__read_text_file', args: { path } }]);
    const agent = new Agent({
      model: new ScriptedModel([
        read('c1', join(root, 'secret', 'key.txt')),
        read('c2', join(workspace, 'escape', 'key.txt')),
        read('c3', join(workspace, 'notes.txt')),
        textResponse('The meeting is at noon.'),
      ]),
      tools,
      toolRetries: 2,
    });
    const result = await agent.run('When is the meeting?');
    const results = result.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
    expect(results[0]).toMatch(
      /^Your tool call was rejected: tool fs__read_text_file failed: .*Access denied - path outside allowed directories/,
    );
    expect(results[1]).toMatch(
      /^Your tool call was rejected: tool fs__read_text_file failed: .*Access denied/,
    );
    expect(results[2]).toBe('meeting at noon');
    expect(JSON.stringify(result.messages)).not.toContain('TOP-SECRET-KEY');
  });

  test('roots from the client replace the allowed directories', async () => {
    const rooted = await connectMcp({
      transport: referenceStdio('server-filesystem', [workspace]),
      roots: [],
    });
    try {
      const list = named(await rooted.tools(), 'list_allowed_directories');
      await rooted.setRoots([{ uri: pathToFileURL(other).href, name: 'other' }]);
      // The server lists the roots again on the notification; each check is one round trip.
      let allowed = '';
      for (let i = 0; i < 200 && !allowed.includes(other); i++) allowed = await call(list, {});
      expect(allowed).toContain(other);
      expect(allowed).not.toContain(workspace);
      const read = named(await rooted.tools(), 'read_text_file');
      expect(await call(read, { path: join(other, 'readme.txt') })).toBe('other root');
    } finally {
      await rooted.close();
    }
  }, 30_000);
});

test('server-memory: entities written by one call are read back by another', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'golem-memory-'));
  const client = await connectMcp({
    transport: referenceStdio('server-memory', [], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
  });
  try {
    const tools = await client.tools();
    await call(named(tools, 'create_entities'), {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    const graph = JSON.parse(await call(named(tools, 'read_graph'), {})) as {
      entities: { name: string; observations: string[] }[];
    };
    expect(graph.entities).toEqual([
      expect.objectContaining({ name: 'Ada', observations: ['wrote the first program'] }),
    ]);
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

describe('server-everything over Streamable HTTP', () => {
  let server: ReferenceHttp;
  let client: McpClient;
  let tools: Tool[];
  beforeAll(async () => {
    server = await startEverythingHttp();
    client = await connectMcp({
      name: 'web',
      transport: { kind: 'http', url: server.url, headers: { 'X-Team': 'golem' } },
      sampling: { model: new ScriptedModel([textResponse('sampled over HTTP')]) },
      elicitation: { handler: () => ({ action: 'accept', content: { name: 'Grace' } }) },
      roots: [{ uri: 'file:///srv/http', name: 'http-root' }],
    });
    tools = await client.tools();
  }, 30_000);
  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  test('tools, resources and prompts', async () => {
    expect(await call(named(tools, 'echo'), { message: 'hi' })).toBe('Echo: hi');
    const [text] = await client.readResource('demo://resource/dynamic/text/5');
    expect(text?.text).toMatch(/^Resource 5: /);
    expect((await client.getPrompt('simple-prompt')).messages).toHaveLength(1);
  });

  test('sampling, elicitation and roots requests arrive on the session streams', async () => {
    expect(await call(named(tools, 'trigger-sampling-request'), { prompt: 'x' })).toContain(
      'sampled over HTTP',
    );
    expect(await call(named(tools, 'trigger-elicitation-request'), {})).toContain('- Name: Grace');
    expect(await call(named(tools, 'get-roots-list'), {})).toContain('URI: file:///srv/http');
  });

  test('progress over HTTP becomes run events', async () => {
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: new ScriptedModel([
        toolCallResponse([
          { id: 'c1', name: 'trigger-long-running-operation', args: { duration: 0.03, steps: 3 } },
        ]),
        textResponse('ok'),
      ]),
      tools,
    });
    await agent.run('go', { observer: (event) => events.push(event) });
    expect(events.filter((e) => e.kind === 'tool_progress').map((e) => e.update)).toEqual([
      { kind: 'progress', progress: 1, total: 3 },
      { kind: 'progress', progress: 2, total: 3 },
      { kind: 'progress', progress: 3, total: 3 },
    ]);
  });
});
