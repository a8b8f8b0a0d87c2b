import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { throwIfCancelled } from '../core/errors/cancellation';
import { ModelRetry } from '../core/errors/errors';
import { isRecord } from '../core/kit/guards';
import type { ToolContext } from '../core/tool/context';
import { defineTool } from '../core/tool/define-tool';
import { requireApproval } from '../core/tool/errors';
import { ConfigError } from '../core/kit/config-error';
import type { Tool } from '../core/tool/tool';
import type { ToolCatalog } from './catalog';
import { Deadline, SDK_TIMEOUT, untilAborted } from './deadline';
import type { McpToolDefinition } from './definitions';
import { pausedReason, pauseOf } from './elicitation-pause';
import { typedError } from './map-error';
import type { ResolvedToolsOptions } from './options';
import { recordOrigin } from './origin';
import { capText, renderContent } from './result';
import { redactText } from './secrets';
import type { McpSession } from './session';
import { callAsTask } from './tasks';
import { McpToolChangedError, McpToolDefinitionError } from './tool-errors';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * One server tool as an agent tool: name (`<prefix>__<name>` with a prefix), the server's
 * description and input schema, and an `execute` that calls `tools/call` with the parsed
 * arguments and the call's signal (a `required` task tool goes through the task flow).
 */
export function bridgeTool(
  session: McpSession,
  catalog: ToolCatalog,
  definition: McpToolDefinition,
  options: ResolvedToolsOptions,
): Tool {
  const name =
    options.prefix === undefined ? definition.name : `${options.prefix}__${definition.name}`;
  if (!NAME.test(name)) {
    throw new McpToolDefinitionError(
      session.name,
      definition.name,
      `${JSON.stringify(name)} is not a portable tool name (1–64 letters, digits, "_" or "-"); leave it out with { exclude: [${JSON.stringify(definition.name)}] }${options.prefix === undefined ? '' : ' or use a shorter prefix'}`,
    );
  }
  let tool: Tool;
  try {
    tool = defineTool({
      name,
      description: definition.description,
      schema: definition.inputSchema,
      execute: (args, ctx) => callTool({ session, catalog, definition, name, options }, args, ctx),
    });
  } catch (error) {
    if (!ConfigError.is(error, 'tool')) throw error;
    throw new McpToolDefinitionError(session.name, definition.name, error.message);
  }
  recordOrigin(tool, { server: session.name, toolName: definition.name });
  return tool;
}

interface Bridged {
  session: McpSession;
  catalog: ToolCatalog;
  definition: McpToolDefinition;
  name: string;
  options: ResolvedToolsOptions;
}

async function callTool(bridged: Bridged, args: unknown, ctx: ToolContext): Promise<string> {
  const { session, catalog, definition, name, options } = bridged;
  const { signal, report } = ctx;
  throwIfCancelled(signal);
  if (!isRecord(args)) {
    throw new ModelRetry(
      `the arguments must be a JSON object matching the input schema of ${name}`,
    );
  }
  session.ensureOpen('tools/call');
  // A pending list change is fetched first; the call's signal still cancels the wait.
  const current = (await untilAborted(catalog.current(), signal)).get(definition.name);
  if (current?.hash !== definition.hash) {
    throw new McpToolChangedError(
      session.name,
      definition.name,
      current === undefined ? 'removed' : 'changed',
    );
  }
  const deadline = new Deadline(
    signal,
    options.timeout,
    `mcp: server "${session.name}" did not answer ${name} within ${options.timeout} ms`,
  );
  const reporter = report ?? (() => undefined);
  session.inflight.add(reporter);
  const progress = report === undefined ? undefined : session.progressToken(report);
  const pause = pauseOf(session.client);
  const pausable = pause?.begin(ctx.callId, ctx.approved);
  const callSignal =
    pausable === undefined ? deadline.signal : AbortSignal.any([deadline.signal, pausable.signal]);
  let result: CallToolResult;
  try {
    result =
      definition.taskSupport === 'required'
        ? await callAsTask(session, definition.name, args, callSignal, report)
        : ((await session.client.callTool(
            {
              name: definition.name,
              arguments: args,
              ...(progress !== undefined && { _meta: { progressToken: progress.token } }),
            },
            undefined,
            { signal: callSignal, timeout: SDK_TIMEOUT },
          )) as CallToolResult);
  } catch (error) {
    const settled = deadline.settle();
    if (settled === undefined && pausable?.asked !== undefined)
      throw requireApproval(pausedReason(pausable.asked));
    throw settled ?? typedError(session.errors, 'tools/call', error);
  } finally {
    if (pausable !== undefined) pause?.end(pausable);
    progress?.release();
    session.inflight.delete(reporter);
    deadline.clear();
  }
  const text = capText(renderContent(result), options.maxResultBytes);
  if (result.isError === true) {
    const shown = redactText(text, session.errors.secrets);
    throw new ModelRetry(
      shown.trim() === '' ? `tool ${name} failed` : `tool ${name} failed: ${shown}`,
    );
  }
  return text;
}
