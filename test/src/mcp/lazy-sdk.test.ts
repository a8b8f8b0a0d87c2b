/**
 * The SDK is an optional peer dependency: `golem/mcp` loads without it, and `connectMcp` fails
 * with a typed error naming the package.
 */
import { ConfigError } from 'golem';

test('golem/mcp loads without the SDK; connectMcp names the missing package', async () => {
  const missing = (id: string) => () => {
    throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
  };
  let mcp: typeof import('golem/mcp') | undefined;
  jest.isolateModules(() => {
    for (const id of [
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/client/stdio.js',
      '@modelcontextprotocol/sdk/client/streamableHttp.js',
      '@modelcontextprotocol/sdk/types.js',
    ])
      jest.doMock(id, missing(id));
    mcp = jest.requireActual<typeof import('golem/mcp')>('golem/mcp');
  });
  const loaded = mcp as typeof import('golem/mcp');
  expect(typeof loaded.connectMcp).toBe('function');
  const error = await loaded.connectMcp({ transport: { kind: 'stdio', command: 'server' } }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(ConfigError.is(error, 'peers', 'missing-peer') && error.message).toBe(
    'mcp: the package @modelcontextprotocol/sdk is not installed; it is an optional peer dependency of golem: run `npm install @modelcontextprotocol/sdk`',
  );
  expect(error).toMatchObject({
    entryPoint: 'golem/mcp',
    packages: ['@modelcontextprotocol/sdk'],
    command: 'npm install @modelcontextprotocol/sdk',
  });
});
