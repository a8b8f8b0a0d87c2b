import type { ToolCall } from '../contract/message';
import type { DeferredResults } from './deferred-types';
import { RunInputError } from './errors';
import type { EngineConfig } from './run-config';
import type { Resolution } from './step';

// Checking a resume's results against the pending calls, before anything runs; the `resolve`
// step itself (engine/resolve.ts) loads with the run loop.

function entries<V>(map: Record<string, V> | Map<string, V> | undefined): Map<string, V> {
  if (map === undefined) return new Map();
  if (map instanceof Map) return new Map(map);
  return new Map(Object.entries(map));
}

/**
 * Pairs every pending call of `history` with exactly one resolution (spec §21.2 steps 2–3).
 * Throws `RunInputError` on a call without id, no pending calls, a missing or unknown id, or an id
 * resolved twice.
 */
export function matchResolutions(
  pending: readonly ToolCall[],
  results: DeferredResults,
): Resolution[] {
  if (typeof results !== 'object' || (results as unknown) === null)
    throw new RunInputError('resume needs deferred results { approvals, external }');
  for (const call of pending)
    if (call.id === '')
      throw new RunInputError(
        `resume: pending call to "${call.name}" has no id and cannot be resolved`,
      );
  if (pending.length === 0)
    throw new RunInputError('resume: the history has no pending tool calls to resolve');
  const approvals = entries(results.approvals);
  const external = entries(results.external);
  const ids = new Set(pending.map((c) => c.id));
  for (const id of approvals.keys()) {
    if (external.has(id))
      throw new RunInputError(
        `resume: call "${id}" is resolved both as an approval and as an external result`,
      );
    if (!ids.has(id)) throw new RunInputError(`resume: approval for unknown call "${id}"`);
  }
  for (const id of external.keys())
    if (!ids.has(id)) throw new RunInputError(`resume: external result for unknown call "${id}"`);
  return pending.map((call): Resolution => {
    const approval = approvals.get(call.id);
    if (approval !== undefined) {
      if (typeof approval !== 'object' || typeof approval.approved !== 'boolean') {
        throw new RunInputError(
          `resume: approval for call "${call.id}" needs a boolean \`approved\``,
        );
      }
      return { call, kind: 'approval', approval };
    }
    const text = external.get(call.id);
    if (text === undefined)
      throw new RunInputError(`resume: pending call "${call.id}" (${call.name}) has no resolution`);
    if (typeof text !== 'string')
      throw new RunInputError(`resume: external result for call "${call.id}" must be a string`);
    return { call, kind: 'external', text };
  });
}

/** Checks that every approved call names a tool advertised to the model (D3), before anything runs. */
export function checkApprovedTools<Deps>(
  config: EngineConfig<Deps>,
  resolutions: readonly Resolution[],
): void {
  for (const r of resolutions) {
    if (r.kind === 'approval' && r.approval.approved && !config.advertised.has(r.call.name)) {
      throw new RunInputError(
        `resume: approved call "${r.call.id}" names tool "${r.call.name}", which this agent does not advertise (toolChoice hides it or it is not registered)`,
      );
    }
  }
}
