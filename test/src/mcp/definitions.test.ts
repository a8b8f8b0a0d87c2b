/**
 * Option validation of `tools()`, server tool definitions that cannot be bridged, and the pure
 * parts of the bridge: content rendering, result caps, definition hashing and diffing, the child
 * environment, synthesized-failure tokens and the SDK loader.
 */
import fc from 'fast-check';
import { CancelledError, ConfigError } from 'golem';
import { connectMcp, type McpClient } from 'golem/mcp';
import { untilAborted } from '../../../src/mcp/deadline';
import { canonicalJson, diffDefinitions, toolDefinition } from '../../../src/mcp/definitions';
import { childEnvironment } from '../../../src/mcp/env';
import { FailureRegistry } from '../../../src/mcp/failures';
import { capText, renderContent } from '../../../src/mcp/result';
import { loadMcpSdk } from '../../../src/mcp/sdk';
import { caughtAs, stdioServer } from './support';
import { McpToolDefinitionError } from '../../support/internal-errors';
import { configErrorGuard } from '../../support/config-error';

describe('tools() options and unbridgeable definitions', () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connectMcp({
      name: 'odd',
      transport: stdioServer('special-server.js', 'invalid'),
    });
  });
  afterAll(() => client.close());

  test.each([
    [
      'bad prefix',
      { prefix: 'a b' },
      'prefix',
      'must be 1–32 letters, digits, "_" or "-", got "a b"',
    ],
    [
      'long prefix',
      { prefix: 'p'.repeat(33) },
      'prefix',
      `must be 1–32 letters, digits, "_" or "-", got "${'p'.repeat(33)}"`,
    ],
    ['include not an array', { include: 'ok' }, 'include', 'must be an array of server tool names'],
    ['empty include name', { include: [''] }, 'include[0]', 'must be a tool name, got ""'],
    ['negative timeout', { timeout: -1 }, 'timeout', 'must be a finite number of ms >= 0, got -1'],
    [
      'fractional maxResultBytes',
      { maxResultBytes: 1.5 },
      'maxResultBytes',
      'must be a non-negative integer number of bytes (0 = default), got 1.5',
    ],
    [
      'unknown include',
      { include: ['nope'] },
      'include',
      `names "nope", which server "odd" does not offer (it offers: ok, bad.name, ${'x'.repeat(70)})`,
    ],
  ])('%s is a configuration error', async (_label, options, option, message) => {
    const error = await caughtAs(configErrorGuard('mcp'), () => client.tools(options as never));
    expect([error.option, error.message]).toEqual([option, `mcp: option \`${option}\` ${message}`]);
  });

  test('an unportable name is left out; named in include it is McpToolDefinitionError naming the fix', async () => {
    expect((await client.tools()).map((t) => t.name)).toEqual(['ok']);
    const error = await caughtAs(McpToolDefinitionError.is, () =>
      client.tools({ include: ['ok', 'bad.name'] }),
    );
    expect([error.server, error.toolName, error.message]).toEqual([
      'odd',
      'bad.name',
      'mcp: server "odd" offers tool "bad.name": "bad.name" is not a portable tool name (1–64 letters, digits, "_" or "-"); leave it out with { exclude: ["bad.name"] }',
    ]);
  });

  test('excluding the unportable names bridges the rest', async () => {
    const tools = await client.tools({ exclude: ['bad.name', 'x'.repeat(70)], prefix: 'odd' });
    expect(tools.map((t) => t.name)).toEqual(['odd__ok']);
  });

  test('a prefix that makes a name too long suggests a shorter prefix', async () => {
    const error = await caughtAs(McpToolDefinitionError.is, () =>
      client.tools({ include: ['x'.repeat(70)], prefix: 'p' }),
    );
    expect(error.message.endsWith(' or use a shorter prefix')).toBe(true);
  });
});

test('a tool listed twice is left out; named in include it is McpToolDefinitionError', async () => {
  const client = await connectMcp({ transport: stdioServer('special-server.js', 'duplicate') });
  try {
    expect(await client.tools()).toEqual([]);
    const error = await caughtAs(McpToolDefinitionError.is, () =>
      client.tools({ include: ['twin'] }),
    );
    expect(error.message).toBe('mcp: server "mcp" offers tool "twin": the name is listed twice');
  } finally {
    await client.close();
  }
});

test.each([
  ['no options', undefined, 'transport', 'is required: pass { transport: { kind: ... } }'],
  [
    'empty name',
    { transport: { kind: 'stdio', command: 'x' }, name: '' },
    'name',
    'must be a string of 1–64 characters, got ""',
  ],
  [
    'timeout too large',
    { transport: { kind: 'stdio', command: 'x' }, timeout: 2 ** 31 },
    'timeout',
    'must be at most 2147483647 ms (about 24.8 days), got 2147483648',
  ],
  [
    'negative maxMessageBytes',
    { transport: { kind: 'stdio', command: 'x' }, maxMessageBytes: -5 },
    'maxMessageBytes',
    'must be a non-negative integer number of bytes (0 = default), got -5',
  ],
  [
    'non-function observer',
    { transport: { kind: 'stdio', command: 'x' }, onToolsChanged: 1 },
    'onToolsChanged',
    'must be a function',
  ],
])('connectMcp: %s is a configuration error', async (_label, options, option, message) => {
  const error = await caughtAs(configErrorGuard('mcp'), () => connectMcp(options as never));
  expect(error.message).toBe(`mcp: option \`${option}\` ${message}`);
});

test('a missing SDK is missing-peer ConfigError naming the package', () => {
  const missing = Object.assign(
    new Error("Cannot find module '@modelcontextprotocol/sdk/client/index.js'"),
    {
      code: 'MODULE_NOT_FOUND',
    },
  );
  let error: unknown;
  try {
    loadMcpSdk(() => {
      throw missing;
    });
  } catch (e) {
    error = e;
  }
  expect(
    ConfigError.is(error, 'peers', 'missing-peer') && [
      error.packages?.[0],
      error.message,
      error.cause,
    ],
  ).toEqual([
    '@modelcontextprotocol/sdk',
    'mcp: the package @modelcontextprotocol/sdk is not installed; it is an optional peer dependency of golem: run `npm install @modelcontextprotocol/sdk`',
    missing,
  ]);
  const other = new Error('boom');
  expect(() =>
    loadMcpSdk(() => {
      throw other;
    }),
  ).toThrow(other);
});

describe('content rendering', () => {
  test('MC-7 text parts joined; unknown and malformed parts summarised', () => {
    expect(
      renderContent({
        content: [
          { type: 'text', text: 'first' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'video', uri: 'x' },
          'junk',
          { type: 'image', data: 'AAA=', mimeType: 'image/\nfake' },
          { type: 'resource', resource: { uri: 'mem://b', blob: 'AAAAAA==' } },
          { type: 'text', text: 'second' },
        ],
      }),
    ).toBe(
      [
        'first',
        '[image: image/png, 3 bytes]',
        '[mcp: unsupported video content]',
        '[mcp: unsupported content]',
        '[image: image/ fake, 2 bytes]',
        '[resource: mem://b, unknown type, 4 bytes]',
        'second',
      ].join('\n'),
    );
  });

  test('structured content is the JSON text when there is no content', () => {
    expect(renderContent({ content: [], structuredContent: { b: 1 } })).toBe('{"b":1}');
    expect(renderContent({})).toBe('');
  });

  test('capText cuts at a character boundary with the marker', () => {
    expect(capText('abcdé', 5)).toBe('abcd\n\n[mcp: result truncated at 5 bytes]');
    expect(capText('abcdé', 6)).toBe('abcdé');
  });

  test('capText never exceeds the cap and keeps a prefix of the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 40 }), (text, max) => {
        const out = capText(text, max);
        if (Buffer.byteLength(text) <= max) return out === text;
        const body = out.slice(0, out.lastIndexOf('\n\n[mcp: result truncated at'));
        return Buffer.byteLength(body) <= max && text.startsWith(body);
      }),
    );
  });
});

describe('definition pinning', () => {
  test('the hash ignores key order and changes with the description or schema', () => {
    const a = toolDefinition('t', 'd', { type: 'object', properties: { x: { type: 'string' } } });
    const b = toolDefinition('t', 'd', { properties: { x: { type: 'string' } }, type: 'object' });
    expect(a.hash).toBe(b.hash);
    expect(toolDefinition('t', 'd2', a.inputSchema).hash).not.toBe(a.hash);
    expect(toolDefinition('t', 'd', { type: 'object' }).hash).not.toBe(a.hash);
  });

  test('a schema nested deeper than 64 levels is refused', () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) deep = { d: deep };
    expect(() => canonicalJson(deep)).toThrow('nested deeper than 64 levels');
  });

  test('diffDefinitions reports added, changed and removed tools', () => {
    const one = toolDefinition('one', '1', { type: 'object' });
    const two = toolDefinition('two', '2', { type: 'object' });
    const twoChanged = toolDefinition('two', '2!', { type: 'object' });
    const three = toolDefinition('three', '3', { type: 'object' });
    const approved = new Map([
      ['one', one],
      ['two', two],
    ]);
    const current = new Map([
      ['two', twoChanged],
      ['three', three],
    ]);
    expect(diffDefinitions(approved, current)).toEqual([
      { kind: 'changed', name: 'two', before: two, after: twoChanged },
      { kind: 'added', name: 'three', after: three },
      { kind: 'removed', name: 'one', before: one },
    ]);
  });
});

test('the child environment: allow-list plus explicit entries, no exported shell functions', () => {
  const env = childEnvironment(
    {
      PATH: '/bin',
      HOME: '/home/a',
      OPENAI_API_KEY: 'sk',
      TERM: '() { x; }',
      LANG: 'C.UTF-8',
      EXTRA: 'e',
    },
    ['EXTRA'],
    { EXPLICIT: '1', HOME: '/override' },
  );
  expect(env).toEqual({
    PATH: '/bin',
    HOME: '/override',
    LANG: 'C.UTF-8',
    EXTRA: 'e',
    EXPLICIT: '1',
  });
  expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
});

test('synthesized failures are found only by their unguessable token, once', () => {
  const registry = new FailureRegistry();
  const failure = new Error('stream ended');
  const data = registry.record(failure);
  expect(registry.take({ golemTransportFailure: 'guessed' })).toBeUndefined();
  expect(registry.take(null)).toBeUndefined();
  expect(registry.take(data)).toBe(failure);
  expect(registry.take(data)).toBeUndefined();
});

test('untilAborted: the value when work settles first, the cancellation error on abort', async () => {
  const live = new AbortController();
  await expect(untilAborted(Promise.resolve('listed'), live.signal)).resolves.toBe('listed');
  await expect(untilAborted(Promise.reject(new Error('list failed')), live.signal)).rejects.toThrow(
    'list failed',
  );
  const pending = untilAborted(new Promise<never>(() => undefined), live.signal);
  live.abort();
  expect(CancelledError.is(await pending.catch((e: unknown) => e))).toBe(true);
});
