import { agentConfigError } from '../engine/errors';
import type { Guardrails } from '../engine/guardrails';
import { isArrayValue, isRecord } from '../kit/guards';

const KINDS = ['input', 'output', 'tool'] as const;

/**
 * Validates `AgentConfig.guardrails` (names, check functions, modes, tool names against the
 * registered tools) and returns the engine's view: `{ guardrails }` when any is declared, else
 * nothing. Throws `ConfigError` naming the guardrail and the fix. Internal.
 */
export function guardrailsConfig<Deps>(
  value: unknown,
  registered: ReadonlyMap<string, unknown>,
): { guardrails?: Guardrails<Deps> } {
  if (value === undefined) return {};
  if (!isRecord(value))
    throw agentConfigError('Agent `guardrails` must be an object { input?, output?, tool? }');
  for (const key of Object.keys(value))
    if (!(KINDS as readonly string[]).includes(key))
      throw agentConfigError(
        `Agent \`guardrails.${key}\` is unknown; use \`input\`, \`output\` or \`tool\``,
      );
  const resolved: Record<string, unknown[]> = {};
  let count = 0;
  for (const kind of KINDS) {
    const list = value[kind];
    if (list === undefined) continue;
    if (!isArrayValue(list))
      throw agentConfigError(`Agent \`guardrails.${kind}\` must be an array of guardrails`);
    const names = new Set<string>();
    list.forEach((entry: unknown, index) => {
      const where = `guardrails.${kind}[${index}]`;
      if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name.trim() === '')
        throw agentConfigError(`Agent \`${where}\` needs a non-empty \`name\``);
      if (names.has(entry.name))
        throw agentConfigError(
          `Agent \`${where}\`: two ${kind} guardrails are named "${entry.name}"`,
        );
      names.add(entry.name);
      checkEntry(kind, `${where} ("${entry.name}")`, entry, registered);
    });
    resolved[kind] = [...list];
    count += list.length;
  }
  return count === 0 ? {} : { guardrails: resolved };
}

function checkEntry(
  kind: (typeof KINDS)[number],
  where: string,
  entry: Record<string, unknown>,
  registered: ReadonlyMap<string, unknown>,
): void {
  const fn = (key: string): boolean => typeof entry[key] === 'function';
  const optionalFn = (key: string): void => {
    if (entry[key] !== undefined && !fn(key))
      throw agentConfigError(`Agent \`${where}.${key}\` must be a function`);
  };
  const oneOf = (key: string, allowed: readonly string[]): void => {
    const v = entry[key];
    if (v !== undefined && (typeof v !== 'string' || !allowed.includes(v)))
      throw agentConfigError(
        `Agent \`${where}.${key}\` must be ${allowed.map((a) => `'${a}'`).join(' or ')}`,
      );
  };
  if (kind === 'input') {
    if (!fn('check'))
      throw agentConfigError(`Agent \`${where}\` needs a \`check(input, ctx)\` function`);
    oneOf('mode', ['sequential', 'parallel']);
    return;
  }
  oneOf('onTrip', ['fail', 'retry']);
  if (kind === 'output') {
    if (!fn('check'))
      throw agentConfigError(`Agent \`${where}\` needs a \`check(output, ctx)\` function`);
    return;
  }
  optionalFn('before');
  optionalFn('after');
  if (!fn('before') && !fn('after'))
    throw agentConfigError(
      `Agent \`${where}\` needs \`before(call, ctx)\` or \`after(call, ctx)\``,
    );
  const tools = entry.tools;
  if (tools === undefined) return;
  if (!isArrayValue(tools) || tools.some((t) => typeof t !== 'string'))
    throw agentConfigError(`Agent \`${where}.tools\` must be an array of tool names`);
  for (const name of tools as string[])
    if (!registered.has(name))
      throw agentConfigError(
        `Agent \`${where}.tools\` names "${name}", which is not a registered tool; register it or remove the name`,
      );
}
