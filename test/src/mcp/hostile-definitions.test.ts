/**
 * Issue 25 item 12: one hostile tool definition does not take a whole MCP server down. A real
 * SDK server process lists two good tools and one hostile definition; golem's client still lists
 * and calls the good ones, `include` / `exclude` select before the checks, and the bad one is
 * reported once per listing (`onToolRejected` and a process warning, seen in a child process).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { connectMcp, type McpToolRejectedEvent } from 'golem/mcp';
import { call, caughtAs, named, stdioServer } from './support';
import { McpToolDefinitionError } from '../../support/internal-errors';

describe.each([
  ['deep', 'deep', 'its input schema cannot be used (nested deeper than 64 levels)'],
  [
    'not-object',
    'not_object',
    expect.stringMatching(/^it is not a valid MCP tool definition \(inputSchema\.type: /) as string,
  ],
  [
    'bad-output',
    'bad_output',
    expect.stringMatching(/^its output schema cannot be used \(.*nonsense/) as string,
  ],
  [
    'bad-name',
    'bad name!',
    expect.stringContaining('"bad name!" is not a portable tool name') as string,
  ],
  [
    'nameless',
    '#2',
    expect.stringMatching(/^it is not a valid MCP tool definition \(name: /) as string,
  ],
])('a server with one hostile tool (%s)', (mode, toolName, problem) => {
  const rejected: McpToolRejectedEvent[] = [];
  let client: Awaited<ReturnType<typeof connectMcp>>;
  beforeAll(async () => {
    client = await connectMcp({
      name: 'mixed',
      transport: stdioServer('hostile-tools-server.js', mode),
      onToolRejected: (event) => rejected.push(event),
    });
  });
  afterAll(() => client.close());

  test('the good tools are listed and callable; the bad one is reported once', async () => {
    const tools = await client.tools();
    expect(tools.map((t) => t.name)).toEqual(['lookup', 'add']);
    expect(await call(named(tools, 'lookup'), { word: 'golem' })).toBe('golem: a word');
    expect(await call(named(tools, 'add'), { a: 2, b: 3 })).toBe('5');
    expect(rejected).toEqual([{ server: 'mixed', toolName, problem }]);
    // Once per listing: asking again reports nothing new.
    expect((await client.tools()).map((t) => t.name)).toEqual(['lookup', 'add']);
    expect(rejected).toHaveLength(1);
  });

  test('exclude applies before the checks: an excluded bad tool is not reported', async () => {
    const before = rejected.length;
    const tools = await client.tools({ exclude: [toolName], prefix: 'm' });
    expect(tools.map((t) => t.name)).toEqual(['m__lookup', 'm__add']);
    expect(rejected.length - before).toBe(0);
  });

  test('include applies before the checks: good tools alone; naming the bad one is its typed error', async () => {
    expect((await client.tools({ include: ['add'] })).map((t) => t.name)).toEqual(['add']);
    const error = await caughtAs(McpToolDefinitionError.is, () =>
      client.tools({ include: ['lookup', toolName] }),
    );
    expect([error.server, error.toolName, error.problem]).toEqual(['mixed', toolName, problem]);
  });
});

test('the left-out tool is also a process warning, in a process of its own', async () => {
  const root = join(__dirname, '..', '..', '..');
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', join(__dirname, 'servers', 'rejection-probe.ts'), 'deep'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const [code] = (await once(child, 'close')) as [number | null];
  expect([code, stdout]).toEqual([0, '["lookup","add"]\n']);
  expect(stderr).toContain(
    'McpToolDefinitionWarning: mcp: server "mixed" offers tool "deep": its input schema cannot be used (nested deeper than 64 levels); the tool is left out, the server\'s other tools stay usable',
  );
}, 30_000);
