import type { StudioAgentInfo, StudioInfo } from './api-types';
import type { StudioContext } from './studio-context';
import type { StudioAgent } from './studio-options';

const VERSION = '0.1.0';

/** What an agent is (its `describe()`), as the studio lists it. */
function infoOf(agent: StudioAgent): StudioAgentInfo {
  const d = agent.describe();
  return {
    name: d.name,
    ...(d.description !== undefined && { description: d.description }),
    tools: d.tools.map((t) => ({ name: t.name, description: t.description })),
    handoffs: [...d.handoffs],
    structuredOutput: d.output !== undefined,
    streaming: d.streaming,
    deferredTools: d.deferredTools,
  };
}

/** `GET /api/info`: the studio's agents, model names, owner scope and features. */
export function studioInfo(ctx: StudioContext): StudioInfo {
  return {
    version: VERSION,
    agents: [...ctx.agents.values()].map(infoOf),
    models: [...ctx.models.keys()],
    ...(ctx.owner !== undefined && { owner: ctx.owner }),
    features: {
      traces: ctx.traces,
      evals: ctx.reports !== undefined,
      playground: ctx.agents.size > 0,
      queue: ctx.queue !== undefined,
    },
  };
}
