import type { Message } from '../contract/message';
import type { Model } from '../contract/model';
import type { ProviderCompactionSettings } from '../contract/request';
import type { CompactionOptions, CompactionPolicy, CompactionPolicyName } from './compaction';
import { SUMMARY_INSTRUCTIONS } from './compaction-policies';
import { estimateTokens, messageCounter } from './context-tokens';
import { agentConfigError } from './errors';

/** An agent's `compaction`, validated and resolved. Internal. */
export interface CompactionPlan {
  readonly maxTokens: number;
  readonly targetTokens: number;
  readonly turns: number;
  /** The client-side policies, in order (`provider` is not one: it is `provider` below). */
  readonly policies: readonly (Exclude<CompactionPolicyName, 'provider'> | CompactionPolicy)[];
  /** What requests ask the provider for, when `provider` is a policy. */
  readonly provider: ProviderCompactionSettings | undefined;
  readonly summary: { model: Model; instructions: string; maxTokens: number };
  readonly count: (message: Message) => number;
}

const NAMES: readonly string[] = ['clear-tool-results', 'summarise', 'provider'];

function fail(message: string): never {
  throw agentConfigError(`Agent \`compaction\`: ${message}`);
}

function positiveInteger(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    fail(`\`${name}\` must be an integer >= 1, got ${String(value)}`);
  return value;
}

/** Validates an agent's `compaction` (configuration mistakes throw `ConfigError`). Internal. */
export function compactionPlan(options: CompactionOptions, agentModel: Model): CompactionPlan {
  if (typeof options !== 'object' || (options as unknown) === null)
    fail('must be an object such as { maxTokens: 100_000 }');
  const maxTokens = positiveInteger(options.maxTokens, 'maxTokens');
  const targetTokens =
    options.targetTokens === undefined
      ? Math.max(1, Math.floor(maxTokens * 0.6))
      : positiveInteger(options.targetTokens, 'targetTokens');
  if (targetTokens > maxTokens)
    fail(`\`targetTokens\` (${targetTokens}) must not exceed \`maxTokens\` (${maxTokens})`);
  const turns = positiveInteger(options.keep?.turns ?? 2, 'keep.turns');
  const listed = options.policies ?? ['clear-tool-results', 'summarise'];
  if (!Array.isArray(listed) || listed.length === 0)
    fail('`policies` must be a non-empty array, e.g. ["clear-tool-results", "summarise"]');
  const policies: CompactionPlan['policies'][number][] = [];
  let provider = false;
  for (const policy of listed as readonly unknown[]) {
    if (typeof policy === 'string') {
      if (!NAMES.includes(policy))
        fail(
          `unknown policy ${JSON.stringify(policy)}; use ${NAMES.join(', ')} or a CompactionPolicy`,
        );
      if (policy === 'provider') provider = true;
      else policies.push(policy as 'clear-tool-results' | 'summarise');
      continue;
    }
    const custom = policy as Partial<CompactionPolicy> | null;
    if (
      custom === null ||
      typeof custom !== 'object' ||
      typeof custom.name !== 'string' ||
      custom.name === '' ||
      typeof custom.compact !== 'function'
    )
      fail('a custom policy must be an object with a `name` and a `compact(input)` method');
    policies.push(custom as CompactionPolicy);
  }
  const summary = options.summary ?? {};
  const model = summary.model ?? agentModel;
  if (typeof (model as Partial<Model> | undefined)?.generate !== 'function')
    fail('`summary.model` must be a Model (an object with `generate`)');
  const count = options.countTokens ?? estimateTokens;
  if (typeof count !== 'function') fail('`countTokens` must be a function (text) => number');
  return {
    maxTokens,
    targetTokens,
    turns,
    policies,
    provider: provider ? { triggerTokens: maxTokens } : undefined,
    summary: {
      model,
      instructions: summary.instructions ?? SUMMARY_INSTRUCTIONS,
      maxTokens: positiveInteger(summary.maxTokens ?? 1024, 'summary.maxTokens'),
    },
    count: messageCounter(checkedCounter(count)),
  };
}

/** The user's counter, its answers checked (a bad count would make every decision wrong). */
function checkedCounter(count: (text: string) => number): (text: string) => number {
  return (text) => {
    const n = count(text);
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0)
      throw new TypeError(`compaction countTokens returned ${String(n)}; return a count >= 0`);
    return n;
  };
}
