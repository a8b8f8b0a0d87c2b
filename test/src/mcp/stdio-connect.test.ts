/**
 * Connecting over stdio (MC-16): configuration errors name the option, a missing executable or
 * working directory fails before any handshake, and the connect signal is honoured.
 */
import { CancelledError, isCancellation, isDeadlineExceeded } from 'golem';
import { McpTransportError, connectMcp } from 'golem/mcp';
import { caught, caughtAs, stdioServer } from './support';
import { configErrorGuard } from '../../support/config-error';

test.each([
  [
    'missing command',
    { kind: 'stdio' },
    'transport.command',
    'must name an executable, got undefined',
  ],
  [
    'blank command',
    { kind: 'stdio', command: ' ' },
    'transport.command',
    'must name an executable, got " "',
  ],
  [
    'env name with "="',
    { kind: 'stdio', command: 'x', env: { 'A=B': '1' } },
    'transport.env',
    'has an invalid variable name "A=B" (letters, digits, "_"; no "=")',
  ],
  [
    'non-string env value',
    { kind: 'stdio', command: 'x', env: { A: 1 } },
    'transport.env.A',
    'must be a string without NUL, got 1',
  ],
  [
    'non-string arg',
    { kind: 'stdio', command: 'x', args: ['a', 2] },
    'transport.args[1]',
    'must be a string without NUL, got 2',
  ],
  [
    'bad inherited name',
    { kind: 'stdio', command: 'x', inheritEnv: ['A-B'] },
    'transport.inheritEnv[0]',
    'must be a variable name, got "A-B"',
  ],
  [
    'bad stderr',
    { kind: 'stdio', command: 'x', stderr: 'pipe' },
    'transport.stderr',
    'must be "ignore" or "inherit", got "pipe"',
  ],
  ['unknown kind', { kind: 'ws' }, 'transport.kind', 'must be "stdio" or "http", got "ws"'],
])('MC-16 stdio configuration error: %s', async (_label, transport, option, message) => {
  const error = await caughtAs(configErrorGuard('mcp'), () => connectMcp({ transport } as never));
  expect([error.option, error.message]).toEqual([option, `mcp: option \`${option}\` ${message}`]);
});

test('MC-16 a missing executable fails connecting with McpTransportError', async () => {
  const error = await caughtAs(McpTransportError.is, () =>
    connectMcp({ transport: { kind: 'stdio', command: '/nonexistent/mcp-server' } }),
  );
  expect([error.method, error.message]).toEqual([
    'connect',
    'mcp: server "mcp", connect: spawn /nonexistent/mcp-server ENOENT',
  ]);
});

test('MC-16 a missing or file working directory is a configuration error', async () => {
  const missing = await caughtAs(configErrorGuard('mcp'), () =>
    connectMcp({ transport: { ...stdioServer('stdio-server.js'), cwd: '/nonexistent/dir' } }),
  );
  expect(missing.message).toBe('mcp: option `transport.cwd` "/nonexistent/dir" does not exist');
  const file = await caughtAs(configErrorGuard('mcp'), () =>
    connectMcp({ transport: { ...stdioServer('stdio-server.js'), cwd: __filename } }),
  );
  expect(file.message).toBe(
    `mcp: option \`transport.cwd\` ${JSON.stringify(__filename)} is not a directory`,
  );
});

test('connecting with an already-aborted signal is the cancellation error', async () => {
  const controller = new AbortController();
  controller.abort();
  const error = await caught(() =>
    connectMcp({ transport: stdioServer('stdio-server.js'), signal: controller.signal }),
  );
  expect(CancelledError.is(error)).toBe(true);
});

test('aborting while connecting rejects with the cancellation error', async () => {
  const controller = new AbortController();
  const pending = connectMcp({
    transport: stdioServer('stdio-server.js'),
    signal: controller.signal,
  });
  setImmediate(() => {
    controller.abort();
  });
  expect(isCancellation(await caught(() => pending))).toBe(true);
});

test('a handshake the server never answers ends at the connect timeout with a deadline', async () => {
  const error = await caught(() =>
    connectMcp({ transport: stdioServer('special-server.js', 'silent-init'), timeout: 300 }),
  );
  expect(isDeadlineExceeded(error)).toBe(true);
  expect(error.message).toBe('mcp: server "mcp" did not complete the handshake within 300 ms');
});
