/**
 * Delegation: `agent.asTool(name, description, { render })` turns a specialist agent into a tool
 * another agent can call. The model passes a `prompt`; the specialist runs it with the delegating
 * run's deps and signal, in a fresh conversation; `render` turns its typed output into the tool
 * result. Only that text enters the delegating run's evidence — `render` is also where you can
 * capture the inner run's result.
 */
import { Agent, ModelRetry, decodeJSON, type Result } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface CityFacts {
  city: string;
  country: string;
  population: number;
}

function toCityFacts(value: unknown): CityFacts {
  if (
    !isRecord(value) ||
    typeof value.city !== 'string' ||
    typeof value.country !== 'string' ||
    typeof value.population !== 'number'
  ) {
    throw new ModelRetry('expected {"city", "country", "population"}');
  }
  return { city: value.city, country: value.country, population: value.population };
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // The specialist answers in JSON, decoded to CityFacts.
  const researcherModel = new ScriptedModel([
    textResponse('{"city":"Lagos","country":"Nigeria","population":15400000}', {
      inputTokens: 80,
      outputTokens: 20,
    }),
  ]);
  const researcher = new Agent<undefined, CityFacts>({
    model: researcherModel,
    instructions: 'Answer with JSON facts about one city.',
    output: decodeJSON(toCityFacts),
  });

  // `render` turns the typed output into text for the delegating model (the default would be JSON).
  const innerRuns: Result<CityFacts>[] = [];
  const researchTool = researcher.asTool('city_researcher', 'Looks up facts about one city.', {
    render: (facts, { result }) => {
      innerRuns.push(result);
      return `${facts.city} (${facts.country}) has about ${(facts.population / 1e6).toFixed(1)} million people.`;
    },
  });

  const plannerModel = new ScriptedModel([
    toolCallResponse(
      [
        {
          id: 'call-1',
          name: 'city_researcher',
          args: { prompt: 'How many people live in Lagos?' },
        },
      ],
      { inputTokens: 50, outputTokens: 12 },
    ),
    textResponse('Lagos is home to roughly 15 million people.', {
      inputTokens: 90,
      outputTokens: 10,
    }),
  ]);
  const planner = new Agent({ model: plannerModel, tools: [researchTool] });

  const result = await planner.run('Plan a trip to the largest city in Nigeria. How big is it?');
  log(`output: ${result.output}`);
  const toolMessage = result.messages.find((m) => m.role === 'tool');
  log(`tool result in the planner's evidence: ${toolMessage?.content ?? ''}`);
  // The specialist ran in its own conversation: its instructions and the prompt only.
  log(
    `the specialist received: ${researcherModel.lastRequest?.messages.map((m) => `${m.role} "${m.content ?? ''}"`).join(', ') ?? ''}`,
  );
  // Usage stays per agent: the planner's evidence does not include the specialist's tokens.
  const inner = innerRuns[0];
  log(
    `planner usage: ${result.usage.inputTokens}+${result.usage.outputTokens} tokens; specialist usage (captured in render): ${inner?.usage.inputTokens ?? 0}+${inner?.usage.outputTokens ?? 0}`,
  );
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
