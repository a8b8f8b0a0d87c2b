import type { Attributes } from '@opentelemetry/api';
import type { ToolSpec } from '../core/contract/request';
import type { ModelIdentity } from './providers';
import { ATTR } from './semconv';

/** The attributes of a successful model call's metric records. */
export interface ChatMetricAttributes {
  /** `gen_ai.client.operation.duration`'s. */
  readonly duration: Attributes;
  /** `gen_ai.client.token.usage`'s for input tokens. */
  readonly input: Attributes;
  /** `gen_ai.client.token.usage`'s for output tokens. */
  readonly output: Attributes;
}

/** Most names one cache keeps (a process has few agents and tools); odd names cannot grow it. */
const MAX_ENTRIES = 256;

/**
 * The attributes every span of a kind starts with, built once per agent, model and tool and
 * shared by all runs of one instrumentation (the SDK copies a span's attributes, so a shared
 * object is never changed). Saves rebuilding the same five to seven attributes for each of a
 * run's spans.
 */
export class SpanBases {
  /** By model, then agent name: text output, JSON output. */
  private readonly runs = [
    new WeakMap<ModelIdentity, Map<string, Attributes>>(),
    new WeakMap<ModelIdentity, Map<string, Attributes>>(),
  ] as const;
  private readonly chats = new WeakMap<ModelIdentity, Attributes>();
  private readonly tools = new WeakMap<readonly ToolSpec[], Map<string, Attributes>>();
  private readonly metrics = new WeakMap<
    ModelIdentity,
    Map<string | undefined, ChatMetricAttributes>
  >();

  /** @param extra - the instrumentation's `attributes`, added to every span. */
  constructor(private readonly extra: Attributes) {}

  /** `invoke_agent`'s attributes for an agent, its model (from `identify`) and its output type. */
  run(agent: string, model: ModelIdentity, outputType: 'text' | 'json'): Attributes {
    const byModel = this.runs[outputType === 'json' ? 1 : 0];
    let byAgent = byModel.get(model);
    if (byAgent === undefined) {
      byAgent = new Map();
      byModel.set(model, byAgent);
    }
    return cached(byAgent, agent, () => ({
      ...this.extra,
      [ATTR.operationName]: 'invoke_agent',
      [ATTR.providerName]: model.provider,
      [ATTR.agentName]: agent,
      [ATTR.requestModel]: model.model,
      [ATTR.outputType]: outputType,
    }));
  }

  /** `chat`'s attributes for a model (from `identify`). */
  chat(model: ModelIdentity): Attributes {
    let attributes = this.chats.get(model);
    if (attributes === undefined) {
      attributes = Object.freeze({
        ...this.extra,
        [ATTR.operationName]: 'chat',
        [ATTR.providerName]: model.provider,
        [ATTR.requestModel]: model.model,
      });
      this.chats.set(model, attributes);
    }
    return attributes;
  }

  /** A model call's metric attributes for a model and the model the provider says answered. */
  chatMetrics(model: ModelIdentity, responseModel: string | undefined): ChatMetricAttributes {
    let byResponse = this.metrics.get(model);
    if (byResponse === undefined) {
      byResponse = new Map();
      this.metrics.set(model, byResponse);
    }
    let attributes = byResponse.get(responseModel);
    if (attributes === undefined) {
      const duration: Attributes = {
        [ATTR.operationName]: 'chat',
        [ATTR.providerName]: model.provider,
        [ATTR.requestModel]: model.model,
      };
      if (responseModel !== undefined) duration[ATTR.responseModel] = responseModel;
      attributes = Object.freeze({
        duration: Object.freeze(duration),
        input: Object.freeze({ ...duration, [ATTR.tokenType]: 'input' }),
        output: Object.freeze({ ...duration, [ATTR.tokenType]: 'output' }),
      });
      if (byResponse.size >= MAX_ENTRIES) byResponse.clear();
      byResponse.set(responseModel, attributes);
    }
    return attributes;
  }

  /** `execute_tool`'s attributes for a tool of an agent (`specs`: the agent's tool specs). */
  tool(specs: readonly ToolSpec[], name: string): Attributes {
    let byName = this.tools.get(specs);
    if (byName === undefined) {
      byName = new Map();
      this.tools.set(specs, byName);
    }
    return cached(byName, name, () => {
      const attributes: Attributes = {
        ...this.extra,
        [ATTR.operationName]: 'execute_tool',
        [ATTR.toolName]: name,
        [ATTR.toolType]: 'function',
      };
      let description: string | undefined;
      for (const spec of specs) if (spec.name === name) description = spec.description;
      if (description !== undefined && description !== '')
        attributes[ATTR.toolDescription] = description;
      return attributes;
    });
  }
}

function cached(map: Map<string, Attributes>, key: string, build: () => Attributes): Attributes {
  let attributes = map.get(key);
  if (attributes === undefined) {
    attributes = Object.freeze(build());
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, attributes);
  }
  return attributes;
}
