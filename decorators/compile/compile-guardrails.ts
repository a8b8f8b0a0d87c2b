import { agentDefinitionError, classNameOf, memberName } from '../errors';
import { classChain, METADATA_KEYS, readOwn, type GuardrailRecord } from '../metadata';
import type { GuardrailDefinitionInfo } from './definition';

const PHASES = ['input', 'output', 'tool_input', 'tool_output'] as const;
const OPTIONS = ['name', 'mode', 'onTrip', 'tools'];

/**
 * The class's `@Guardrail` methods, base classes' first, each checked: a known phase, options that
 * fit it, an instance method, a unique name per phase. Throws a `ConfigError` (component
 * `decorators`).
 */
export function compileGuardrails(target: object): GuardrailDefinitionInfo[] {
  const compiled: GuardrailDefinitionInfo[] = [];
  for (const owner of classChain(target)) {
    const records = (readOwn(METADATA_KEYS.guardrails, owner) ?? []) as readonly GuardrailRecord[];
    for (const record of records) compiled.push(compileOne(owner, record, compiled));
  }
  return compiled;
}

function compileOne(
  owner: object,
  record: GuardrailRecord,
  earlier: readonly GuardrailDefinitionInfo[],
): GuardrailDefinitionInfo {
  const className = classNameOf(owner);
  const member = memberName(record.member);
  const fail = (message: string, hint: string): never => {
    throw agentDefinitionError('invalid-guardrail', message, { className, member, hint });
  };
  const phase = record.phase;
  if (typeof phase !== 'string' || !(PHASES as readonly string[]).includes(phase))
    fail(
      `@Guardrail has an unknown phase ${JSON.stringify(phase)}`,
      `use one of ${PHASES.join(', ')}`,
    );
  const p = phase as GuardrailDefinitionInfo['phase'];
  if (record.isStatic) fail('@Guardrail is on a static member', 'declare it on an instance method');
  const { options } = record;
  for (const key of Object.keys(options))
    if (!OPTIONS.includes(key))
      fail(`@Guardrail has an unknown option "${key}"`, `the options are ${OPTIONS.join(', ')}`);
  const name = options.name ?? (typeof record.member === 'string' ? record.member : undefined);
  if (typeof name !== 'string' || name.trim() === '')
    fail('@Guardrail needs a name', "pass { name: '…' } (symbol-keyed methods have none)");
  if (
    options.mode !== undefined &&
    (p !== 'input' || !['sequential', 'parallel'].includes(options.mode as string))
  )
    fail(
      '@Guardrail `mode` is for input guardrails only',
      "use mode 'sequential' or 'parallel' with phase 'input'",
    );
  if (
    options.onTrip !== undefined &&
    (p === 'input' || !['fail', 'retry'].includes(options.onTrip as string))
  )
    fail(
      '@Guardrail `onTrip` is for output and tool guardrails only',
      "use onTrip 'fail' or 'retry'",
    );
  const tools = options.tools;
  if (
    tools !== undefined &&
    (!p.startsWith('tool_') || !Array.isArray(tools) || tools.some((t) => typeof t !== 'string'))
  )
    fail(
      '@Guardrail `tools` is for tool guardrails only and lists tool names',
      "e.g. { tools: ['transfer'] }",
    );
  if (earlier.some((g) => g.name === name && g.phase === p))
    fail(`two ${p} guardrails are named "${name as string}"`, 'give one a different { name }');
  return {
    name: name as string,
    member: record.member,
    phase: p,
    ...(options.mode !== undefined && { mode: options.mode as 'sequential' | 'parallel' }),
    ...(options.onTrip !== undefined && { onTrip: options.onTrip as 'fail' | 'retry' }),
    ...(tools !== undefined && { tools: [...(tools as string[])] }),
  };
}
