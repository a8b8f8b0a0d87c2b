import { Scope } from '@nestjs/common';
import { ContextIdFactory, type ModuleRef } from '@nestjs/core';
import type { ServableAgent } from '../src/a2a/index';
import { nestError, nameOf } from './errors';
import type { A2AModuleAgent, A2AModuleOptions } from './a2a-options';
import { definitionOf, getAgentToken, type AgentClass } from './tokens';

const WHERE = 'A2AModule';

/**
 * A request-scoped agent: built once for its card, then afresh (in a context of its own) for
 * every run, as the queue worker does for each job.
 */
async function perRun(ref: ModuleRef, token: object): Promise<ServableAgent> {
  const fresh = (): Promise<ServableAgent> =>
    ref.resolve<unknown, ServableAgent>(token as never, ContextIdFactory.create(), {
      strict: false,
    });
  const sample = await fresh();
  return {
    name: sample.name,
    store: sample.store,
    ...(sample.describe !== undefined && { describe: sample.describe.bind(sample) }),
    run: async (prompt, options) => (await fresh()).run(prompt, options),
    resume: async (history, results, options) => (await fresh()).resume(history, results, options),
  };
}

/** The engine agent Nest built for `target` (registered with `GolemModule.forFeature`). */
async function fromNest(ref: ModuleRef, target: AgentClass): Promise<ServableAgent> {
  definitionOf(target, WHERE);
  const token = getAgentToken(target);
  let scope: Scope | undefined;
  try {
    scope = ref.introspect(token).scope;
  } catch (error) {
    throw nestError(
      `${WHERE}: ${nameOf(target)} is not registered: import GolemModule.forFeature([${nameOf(target)}]) in the application`,
      { reason: 'unregistered-agent', agent: nameOf(target), cause: error },
    );
  }
  if (scope === Scope.REQUEST || scope === Scope.TRANSIENT) return perRun(ref, token);
  return ref.get<unknown, ServableAgent>(token, { strict: false });
}

function resolveOne(ref: ModuleRef, agent: A2AModuleAgent): Promise<ServableAgent> {
  return typeof agent === 'function' ? fromNest(ref, agent) : Promise.resolve(agent);
}

/** The agents of the options with every `@Agent` class replaced by its engine agent. */
export async function resolveAgents(
  ref: ModuleRef,
  agents: A2AModuleOptions['agents'],
): Promise<ServableAgent | Record<string, ServableAgent>> {
  if (typeof agents === 'function' || typeof (agents as { run?: unknown }).run === 'function')
    return resolveOne(ref, agents as A2AModuleAgent);
  const entries = Object.entries(agents as Readonly<Record<string, A2AModuleAgent>>);
  const resolved = await Promise.all(
    entries.map(async ([key, agent]) => [key, await resolveOne(ref, agent)] as const),
  );
  return Object.fromEntries(resolved);
}
