import { GolemError, brandGuard } from '../core/kit/error-base';
import { ConfigError } from '../core/kit/config-error';
import type { McpToolChange } from './definitions';

/** A server-chosen tool name for a message: quoted, escaped, and cut after 128 characters. */
function shownName(name: string): string {
  return JSON.stringify(name.length > 128 ? `${name.slice(0, 128)}…` : name);
}

/**
 * The server advertises a tool that cannot be bridged: a definition that is not a valid MCP tool,
 * a name that is not a portable tool name (1–64 letters, digits, `_`, `-`, prefix included), a
 * duplicate name, an input schema that is not an object schema or nests deeper than 64 levels, an
 * output schema that does not compile. `tools()` leaves such a tool out (reported with
 * `onToolRejected` and a process warning) and throws this only when `include` names it.
 */
export class McpToolDefinitionError extends GolemError {
  readonly server: string;
  /** The tool's name as the server advertises it (`#n` for the n-th listed tool without one). */
  readonly toolName: string;
  /** What makes the definition unusable. */
  readonly problem: string;

  constructor(server: string, toolName: string, problem: string) {
    super(
      'McpToolDefinitionError',
      `mcp: server "${server}" offers tool ${shownName(toolName)}: ${problem}`,
    );
    this.server = server;
    this.toolName = toolName;
    this.problem = problem;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpToolDefinitionError>('McpToolDefinitionError');
}

/**
 * The server's tool definitions differ from the approved (pinned) ones: tools were added or a
 * description or input schema changed. Review `changes`, then call `client.approve()` and
 * `client.tools()` again — or stop using the server.
 */
export class McpToolsChangedError extends GolemError {
  readonly server: string;
  readonly changes: readonly McpToolChange[];

  constructor(server: string, changes: readonly McpToolChange[]) {
    super(
      'McpToolsChangedError',
      `mcp: server "${server}" changed its tools since they were approved (${changes
        .map((c) => `${c.kind} ${JSON.stringify(c.name)}`)
        .join(', ')}); review error.changes, then call client.approve() to accept them`,
    );
    this.server = server;
    this.changes = changes;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpToolsChangedError>('McpToolsChangedError');
}

/**
 * A bridged tool was called after the server changed or removed its definition: the call is not
 * made. Approve the change and build the tools again to use the new definition.
 */
export class McpToolChangedError extends GolemError {
  readonly server: string;
  readonly toolName: string;
  readonly change: 'changed' | 'removed';

  constructor(server: string, toolName: string, change: 'changed' | 'removed') {
    super(
      'McpToolChangedError',
      `mcp: server "${server}" ${change === 'changed' ? 'changed the definition of' : 'no longer offers'} tool ${JSON.stringify(toolName)}; the call was not made (approve the change and rebuild the tools)`,
    );
    this.server = server;
    this.toolName = toolName;
    this.change = change;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<McpToolChangedError>('McpToolChangedError');
}

/**
 * Two tools given to `mergeTools` share a name: a {@link ConfigError} of component `mcp`, reason
 * `tool-collision`; `sources` describes both.
 */
export function mcpToolCollisionError(
  toolName: string,
  sources: readonly [string, string],
): ConfigError {
  return new ConfigError(
    `mcp: two tools are named ${JSON.stringify(toolName)}: ${sources[0]} and ${sources[1]}; give the MCP tools a prefix (client.tools({ prefix })) or exclude one of them`,
    { component: 'mcp', reason: 'tool-collision', toolName, sources },
  );
}
