import type {
  GuardrailContext,
  Guardrails,
  InputGuardrail,
  OutputGuardrail,
  ToolGuardrail,
} from '../src/core/index';
import type { AgentDefinition, GuardrailDefinitionInfo } from './compile/definition';
import { agentDefinitionError, memberName } from './errors';

type Check = (value: unknown, ctx: GuardrailContext<unknown>) => never;

/**
 * The agent's guardrails: `declared` (from `@Agent({ guardrails })`) first, then the class's
 * `@Guardrail` methods bound to `instance`; `undefined` when there are none. A tool guardrail's
 * `tool_input` and `tool_output` methods with one name become one guardrail. Internal.
 */
export function boundGuardrails<Deps>(
  instance: object,
  definition: AgentDefinition,
  declared: Guardrails | undefined,
): Guardrails<Deps> | undefined {
  if (definition.guardrails.length === 0) return declared;
  const input: InputGuardrail<Deps>[] = [...((declared?.input ?? []) as InputGuardrail<Deps>[])];
  const output: OutputGuardrail<Deps>[] = [
    ...((declared?.output ?? []) as OutputGuardrail<Deps>[]),
  ];
  const tool: ToolGuardrail<Deps>[] = [...((declared?.tool ?? []) as ToolGuardrail<Deps>[])];
  const byName = new Map<string, ToolGuardrail<Deps>>();
  for (const info of definition.guardrails) {
    const check = methodOf(instance, definition, info);
    if (info.phase === 'input')
      input.push({ name: info.name, check, ...(info.mode !== undefined && { mode: info.mode }) });
    else if (info.phase === 'output')
      output.push({
        name: info.name,
        check,
        ...(info.onTrip !== undefined && { onTrip: info.onTrip }),
      });
    else {
      const existing = byName.get(info.name);
      const hook = info.phase === 'tool_input' ? { before: check } : { after: check };
      const merged: ToolGuardrail<Deps> = {
        ...(existing ?? {
          name: info.name,
          ...(info.onTrip !== undefined && { onTrip: info.onTrip }),
          ...(info.tools !== undefined && { tools: info.tools }),
        }),
        ...hook,
      };
      if (existing === undefined) tool.push(merged);
      else tool[tool.indexOf(existing)] = merged;
      byName.set(info.name, merged);
    }
  }
  return { input, output, tool };
}

function methodOf(
  instance: object,
  definition: AgentDefinition,
  info: GuardrailDefinitionInfo,
): Check {
  const method: unknown = (instance as Record<string | symbol, unknown>)[info.member];
  if (typeof method !== 'function')
    throw agentDefinitionError(
      'not-a-method',
      `the instance's ${memberName(info.member)} is ${typeof method}, not the @Guardrail method`,
      {
        className: definition.className,
        member: memberName(info.member),
        hint: 'do not shadow decorated methods with instance properties',
      },
    );
  const fn = method as (this: object, value: unknown, ctx: GuardrailContext<unknown>) => never;
  return (value, ctx) => fn.call(instance, value, ctx);
}
