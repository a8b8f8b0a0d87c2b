import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { showValue } from '../core/kit/error-base';
import { isRecord } from '../core/kit/guards';
import { fail } from './option-checks';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Launch an MCP server as a child process and talk JSON-RPC over its stdin/stdout. */
export interface McpStdioTransport {
  kind: 'stdio';
  /** The executable (no shell is involved). */
  command: string;
  args?: readonly string[];
  /** Variables set for the child on top of the allow-listed ones (see `inheritEnv`). */
  env?: Readonly<Record<string, string>>;
  /** Extra variable names the child may inherit from this process, beyond the default allow-list. */
  inheritEnv?: readonly string[];
  /** The child's working directory; default: this process's. */
  cwd?: string;
  /** What happens to the child's stderr; default `'ignore'`. */
  stderr?: 'ignore' | 'inherit';
}

/** Talk to an MCP server over Streamable HTTP. */
export interface McpHttpTransport {
  kind: 'http';
  /** The MCP endpoint, `http:` or `https:`. */
  url: string | URL;
  /** Headers sent with every request (e.g. `Authorization`). */
  headers?: Readonly<Record<string, string>>;
  /**
   * OAuth 2.1 (authorization code + PKCE) through the SDK's `OAuthClientProvider` interface — e.g.
   * {@link mcpOAuthProvider} with a token store of yours. Tokens are sent as `Authorization:
   * Bearer`, refreshed when they expire; without a usable token `connectMcp` throws
   * `McpAuthorizationRequiredError` after handing the provider the authorization URL.
   */
  auth?: OAuthClientProvider;
}

/** How to reach the server. */
export type McpTransportConfig = McpStdioTransport | McpHttpTransport;

/** A transport after validation; an HTTP URL is parsed. Internal. */
export type ResolvedTransport =
  | Required<McpStdioTransport>
  | (Required<Omit<McpHttpTransport, 'auth'>> & {
      url: URL;
      auth: OAuthClientProvider | undefined;
    });

/** Validates the transport option; throws an `mcp` `ConfigError` naming the field. */
export function resolveTransport(transport: unknown): ResolvedTransport {
  if (!isRecord(transport)) fail('transport', 'is required: pass { kind: "stdio" | "http", ... }');
  if (transport.kind === 'stdio') return resolveStdio(transport);
  if (transport.kind === 'http') return resolveHttp(transport);
  return fail('transport.kind', `must be "stdio" or "http", got ${showValue(transport.kind)}`);
}

function stringList(
  option: string,
  value: unknown,
  check: (item: string) => boolean,
  what: string,
): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(option, `must be an array of ${what}s`);
  return (value as unknown[]).map((item, i) => {
    if (typeof item !== 'string' || !check(item))
      fail(`${option}[${i}]`, `must be ${what}, got ${showValue(item)}`);
    return item;
  });
}

function resolveStdio(t: Record<string, unknown>): Required<McpStdioTransport> {
  const { command, env = {}, cwd = '', stderr = 'ignore' } = t;
  if (typeof command !== 'string' || command.trim() === '' || command.includes('\0')) {
    fail('transport.command', `must name an executable, got ${showValue(command)}`);
  }
  const args = stringList(
    'transport.args',
    t.args,
    (a) => !a.includes('\0'),
    'a string without NUL',
  );
  const inheritEnv = stringList(
    'transport.inheritEnv',
    t.inheritEnv,
    (k) => ENV_NAME.test(k),
    'a variable name',
  );
  if (!isRecord(env)) fail('transport.env', 'must be an object of NAME: value strings');
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (!ENV_NAME.test(key)) {
      fail(
        'transport.env',
        `has an invalid variable name ${JSON.stringify(key)} (letters, digits, "_"; no "=")`,
      );
    }
    if (typeof value !== 'string' || value.includes('\0')) {
      fail(`transport.env.${key}`, `must be a string without NUL, got ${showValue(value)}`);
    }
    childEnv[key] = value;
  }
  if (typeof cwd !== 'string' || cwd.includes('\0')) {
    fail('transport.cwd', `must be a directory path, got ${showValue(cwd)}`);
  }
  if (stderr !== 'ignore' && stderr !== 'inherit') {
    fail('transport.stderr', `must be "ignore" or "inherit", got ${showValue(stderr)}`);
  }
  return { kind: 'stdio', command, args, env: childEnv, inheritEnv, cwd, stderr };
}

function resolveHttp(t: Record<string, unknown>): ResolvedTransport & { kind: 'http' } {
  const { url, headers = {}, auth } = t;
  if (auth !== undefined && (!isRecord(auth) || typeof auth.tokens !== 'function')) {
    fail('transport.auth', 'must be an OAuthClientProvider (e.g. mcpOAuthProvider({ ... }))');
  }
  if (typeof url !== 'string' && !(url instanceof URL)) {
    return fail('transport.url', `is required: an http: or https: URL, got ${showValue(url)}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const shown = String(url).replace(/\?.*$/s, '?[redacted]');
    return fail('transport.url', `is not a valid URL: ${JSON.stringify(shown)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    fail('transport.url', `must use http: or https:, got ${JSON.stringify(parsed.protocol)}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    fail('transport.url', 'must not contain credentials; send them in `headers`');
  }
  if (!isRecord(headers)) fail('transport.headers', 'must be an object of header: value strings');
  const copied: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value !== 'string')
      fail(`transport.headers.${key}`, `must be a string, got ${showValue(value)}`);
    checkHeader(key, value);
    copied[key] = value;
  }
  return {
    kind: 'http',
    url: parsed,
    headers: copied,
    auth: auth as OAuthClientProvider | undefined,
  };
}

/** Header values are secrets: a bad one is reported by name only, never echoed. */
function checkHeader(name: string, value: string): void {
  try {
    new Headers([[name, '']]);
  } catch {
    fail('transport.headers', `has an invalid header name ${JSON.stringify(name)}`);
  }
  try {
    new Headers([[name, value]]);
  } catch {
    fail(
      'transport.headers',
      `has an invalid value for ${JSON.stringify(name)} (a line break, NUL or a character above U+00FF); the value is not shown, as it may be a secret`,
    );
  }
}
