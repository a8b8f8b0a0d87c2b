import type { JsonSchema } from '../kit/json';
import type { EngineConfig } from '../engine/run-config';
import type { Instructions } from '../engine/instructions';
import { fixedInstructionsText } from '../engine/instructions';

/**
 * What an agent is, for the tools that present it (an A2A card, a studio, an operator's list):
 * its name and description, the tools its model sees, where it may hand off, its output schema.
 * A snapshot: changing it changes nothing.
 * @inline
 */
export interface AgentDescription {
  /** The agent's `name`. */
  readonly name: string;
  /** The agent's `description`, if it has one. */
  readonly description: string | undefined;
  /**
   * The agent's instructions when they are a fixed text (`undefined` when none or a function).
   * Often private: never publish them on the agent's behalf.
   */
  readonly instructions: string | undefined;
  /** The tools the model is offered (not the output tool, not transfers), in order. */
  readonly tools: readonly {
    readonly name: string;
    readonly description: string;
    readonly schema: JsonSchema;
  }[];
  /** The names of the agents it may hand off to, in order. */
  readonly handoffs: readonly string[];
  /** The JSON Schema of its structured output; `undefined` for text output. */
  readonly output: JsonSchema | undefined;
  /** Whether its model streams. */
  readonly streaming: boolean;
  /** Whether its runs may pause on deferred tools (`deferredTools: true`). */
  readonly deferredTools: boolean;
}

/** The description of an agent from its resolved configuration. Internal. */
export function describeAgent<Deps>(
  name: string,
  description: string | undefined,
  instructions: Instructions<Deps> | undefined,
  engine: EngineConfig<Deps>,
  streaming: boolean,
): AgentDescription {
  return {
    name,
    description,
    instructions: fixedText(instructions),
    tools: [...engine.advertised.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      schema: tool.schema,
    })),
    handoffs: [...(engine.handoffs?.values() ?? [])].map((route) => route.agent),
    output: engine.outputSchema ?? engine.outputTool?.schema,
    streaming,
    deferredTools: engine.deferredTools,
  };
}

/** Instructions that are only text, joined as a run joins them; `undefined` otherwise. */
function fixedText<Deps>(instructions: Instructions<Deps> | undefined): string | undefined {
  const text = fixedInstructionsText(instructions);
  return text === '' ? undefined : text;
}
