import type { Tool } from '../core/tool/tool';
import { bridgeTool } from './bridge';
import type { McpElicitationAnswer, McpLogLevel, McpRoot } from './capability-types';
import { resolveRoots } from './capability-options';
import { ToolCatalog } from './catalog';
import { diffDefinitions, type McpToolChange, type McpToolDefinition } from './definitions';
import { checkedPauseAnswer, pauseOf } from './elicitation-pause';
import { mcpConfigError } from './errors';
import { McpTaskError } from './feature-errors';
import { resolveToolsOptions, type McpToolsOptions } from './options';
import { getPrompt, listPrompts, type McpPrompt, type McpPromptInfo } from './prompts';
import { resourceContext, resourceTool, type McpResourceToolOptions } from './resource-exposure';
import {
  listResources,
  listResourceTemplates,
  readResource,
  subscribeResource,
  unsubscribeResource,
  type McpReadResourceOptions,
  type McpResource,
  type McpResourceContents,
  type McpResourceTemplate,
} from './resources';
import type { RootsState } from './roots';
import type { McpSession } from './session';
import type { McpServerInfo } from './session-types';
import { serverRunsToolTasks } from './tasks';
import { McpToolDefinitionError, McpToolsChangedError } from './tool-errors';

/** What a client is built from. Internal. */
export interface McpClientInit {
  session: McpSession;
  roots: RootsState | undefined;
}

/**
 * A connected MCP server. Build one with {@link connectMcp}; turn its tools into agent tools with
 * {@link McpClient.tools}; read its resources and prompts; {@link McpClient.close} it when done.
 *
 * Tool definitions are pinned: the first listing is approved implicitly; later listings that add
 * tools or change a description or input schema make `tools()` throw `McpToolsChangedError` until
 * the application calls {@link McpClient.approve}, and a bridged tool whose definition changed is
 * not called (`McpToolChangedError`).
 */
export class McpClient {
  /** The label used in errors (`connectMcp({ name })`, default `mcp`). */
  readonly name: string;
  private readonly session: McpSession;
  private readonly catalog: ToolCatalog;
  private readonly rootsState: RootsState | undefined;

  /** @internal Use {@link connectMcp}. */
  constructor(init: McpClientInit) {
    this.session = init.session;
    this.name = init.session.name;
    this.catalog = new ToolCatalog(init.session);
    this.rootsState = init.roots;
  }

  /** The server's name and version from the handshake. */
  get server(): McpServerInfo {
    return this.session.server;
  }

  /** The server's instructions from the handshake (untrusted text), if it sent any. */
  get instructions(): string | undefined {
    return this.session.instructions;
  }

  /** The process id of a stdio server (undefined for HTTP or once it exited). */
  get pid(): number | undefined {
    return this.session.pid;
  }

  /** True once the server announced a tool-list change that has not been fetched yet. */
  get stale(): boolean {
    return this.catalog.stale;
  }

  /** True once `close()` was called or the server went away. */
  get closed(): boolean {
    return this.session.closed;
  }

  /**
   * Lists the server's tools afresh (following pagination) and returns how they differ from the
   * approved definitions. The first listing becomes the approved set.
   */
  refresh(): Promise<McpToolChange[]> {
    return this.catalog.refresh();
  }

  /** The current definitions, listing them first if none are known or the list is stale. */
  async definitions(): Promise<McpToolDefinition[]> {
    return [...(await this.catalog.current()).values()];
  }

  /** Accepts the latest listing as the approved definitions (after reviewing the changes). */
  approve(): void {
    this.catalog.approve();
  }

  /**
   * The server's tools as agent tools (see {@link McpToolsOptions}). `include` / `exclude` select
   * by name first; a selected tool whose definition cannot be used (not a valid MCP tool, an
   * unportable or duplicate name, an input schema that is not an object schema or nests deeper
   * than 64 levels, an output schema that does not compile) is left out and reported
   * (`onToolRejected` and a process warning) — the others stay usable. Throws
   * `McpToolDefinitionError` when `include` names such a tool, `McpToolsChangedError` when a
   * selected tool was added or changed since approval, and `McpTaskError` when `include` names a
   * task tool that cannot be run. Task tools that cannot be run are otherwise left out.
   */
  async tools(options?: McpToolsOptions): Promise<Tool[]> {
    const resolved = resolveToolsOptions(options);
    this.session.ensureOpen('tools/list');
    const current = await this.catalog.current();
    const rejected = this.catalog.rejected;
    for (const name of resolved.include ?? []) {
      if (!current.has(name) && !rejected.has(name)) {
        throw mcpConfigError(
          'include',
          `names ${JSON.stringify(name)}, which server "${this.name}" does not offer (it offers: ${[...current.keys()].join(', ')})`,
        );
      }
      const problem = rejected.get(name);
      if (problem !== undefined) throw new McpToolDefinitionError(this.name, name, problem);
    }
    const runnable = (d: McpToolDefinition): boolean =>
      this.taskRefusal(d, resolved.taskTools) === undefined;
    for (const name of resolved.include ?? []) {
      const definition = current.get(name) as McpToolDefinition;
      const refusal = this.taskRefusal(definition, resolved.taskTools);
      if (refusal !== undefined) throw refusal;
    }
    const wanted = (name: string): boolean =>
      (resolved.include?.has(name) ?? true) && !resolved.exclude.has(name);
    for (const [name, problem] of rejected) {
      if (wanted(name)) this.leaveOut(new McpToolDefinitionError(this.name, name, problem));
    }
    const selected = [...current.values()].filter((d) => wanted(d.name) && runnable(d));
    const names = new Set(selected.map((d) => d.name));
    const changes = diffDefinitions(this.catalog.approved(current), current).filter(
      (c) => c.kind !== 'removed' && names.has(c.name),
    );
    if (changes.length > 0) throw new McpToolsChangedError(this.name, changes);
    const tools: Tool[] = [];
    for (const definition of selected) {
      try {
        tools.push(bridgeTool(this.session, this.catalog, definition, resolved));
      } catch (error) {
        if (!McpToolDefinitionError.is(error) || resolved.include !== undefined) throw error;
        this.leaveOut(error);
      }
    }
    return tools;
  }

  /** Reports a selected tool that cannot be bridged, once per listing. */
  private leaveOut(error: McpToolDefinitionError): void {
    if (this.catalog.firstReport(error.toolName)) {
      this.session.toolRejected(error.toolName, error.problem, error.message);
    }
  }

  /** Why a required-task tool cannot be offered, or undefined when it can. */
  private taskRefusal(
    definition: McpToolDefinition,
    mode: 'call' | 'exclude',
  ): McpTaskError | undefined {
    if (definition.taskSupport !== 'required') return undefined;
    if (mode === 'exclude') {
      return new McpTaskError({
        server: this.name,
        toolName: definition.name,
        side: 'local',
        message:
          'it requires task-based execution and tools({ taskTools: "exclude" }) leaves task tools out',
      });
    }
    if (!serverRunsToolTasks(this.session)) {
      return new McpTaskError({
        server: this.name,
        toolName: definition.name,
        side: 'server',
        message:
          'the server marks it task-only but does not declare task support for tools/call in the handshake',
      });
    }
    return undefined;
  }

  /** Every resource the server lists (pagination followed). Needs the `resources` capability. */
  listResources(): Promise<McpResource[]> {
    return listResources(this.session);
  }

  /** Every resource template the server lists. */
  listResourceTemplates(): Promise<McpResourceTemplate[]> {
    return listResourceTemplates(this.session);
  }

  /** Reads a resource (text, or binary decoded), refusing more than `maxBytes` (default 1 MiB). */
  readResource(uri: string, options?: McpReadResourceOptions): Promise<McpResourceContents[]> {
    return readResource(this.session, uri, options);
  }

  /** Subscribes to changes of a resource: `onResourceUpdated` then reports them. */
  subscribe(uri: string): Promise<void> {
    return subscribeResource(this.session, uri);
  }

  /** Ends a subscription. */
  unsubscribe(uri: string): Promise<void> {
    return unsubscribeResource(this.session, uri);
  }

  /** A tool reading the selected resources on demand (see the guide: tool or context). */
  resourceTool(options?: McpResourceToolOptions): Promise<Tool> {
    return resourceTool(this.session, options);
  }

  /** Instructions that put the given resources in the model's context, read on every run. */
  resourceContext(uris: readonly string[], options?: { maxBytes?: number }): () => Promise<string> {
    return resourceContext(this.session, uris, options);
  }

  /** Every prompt the server lists. Needs the `prompts` capability. */
  listPrompts(): Promise<McpPromptInfo[]> {
    return listPrompts(this.session);
  }

  /** A prompt rendered with `args`, as golem messages and as text. */
  getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options?: { signal?: AbortSignal },
  ): Promise<McpPrompt> {
    return getPrompt(this.session, name, args, options);
  }

  /** The roots offered to the server (empty without the `roots` option). */
  get roots(): readonly McpRoot[] {
    return this.rootsState?.roots ?? [];
  }

  /** Replaces the roots and sends `notifications/roots/list_changed`. Needs `roots` at connect. */
  async setRoots(roots: readonly McpRoot[]): Promise<void> {
    if (this.rootsState === undefined) {
      throw mcpConfigError(
        'roots',
        'was not given to connectMcp, so the roots capability is not declared; pass roots: [] to enable it',
      );
    }
    const checked = resolveRoots('roots', roots);
    this.session.ensureOpen('notifications/roots/list_changed');
    await this.rootsState.set(checked);
  }

  /**
   * The user's answer to the elicitation that paused call `callId` (`elicitation: { pauseRun }`):
   * kept until the approved call runs again on this client and the server asks again. Needs
   * `pauseRun` at connect.
   */
  answerElicitation(callId: string, answer: McpElicitationAnswer): void {
    const pause = pauseOf(this.session.client);
    if (pause === undefined) {
      throw mcpConfigError(
        'elicitation.pauseRun',
        'was not set at connect, so no call pauses for an elicitation; pass elicitation: { pauseRun: true }',
      );
    }
    pause.answer(callId, checkedPauseAnswer(callId, answer));
  }

  /** Asks the server to send log messages at `level` and above. Needs the `logging` capability. */
  setLogLevel(level: McpLogLevel): Promise<void> {
    return this.session.setLogLevel(level);
  }

  /**
   * Closes the connection: the transport first (nothing reconnects afterwards), then an HTTP
   * session is ended (`DELETE`, best effort, at most 1 s); a stdio child's stdin is closed and the
   * child waited for (then terminated if it lingers). Idempotent.
   */
  close(): Promise<void> {
    return this.session.close();
  }
}
