/**
 * Tool-mode structured output: `outputTool` turns the output schema into a tool the model calls to
 * deliver its answer. It works with every model that can call tools, even without native
 * structured output. The run ends on the first call to it; its arguments go to the decoder.
 */
import { Agent, ModelRetry, decodeJSON, defineTool, type Message } from 'golem';
import { ScriptedModel, toolCallResponse } from 'golem/testing';

/** Whether `value` is a JSON object (what a model sends as a tool's arguments). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface Report {
  city: string;
  celsius: number;
}

function toReport(value: unknown): Report {
  if (!isRecord(value) || typeof value.city !== 'string' || typeof value.celsius !== 'number') {
    throw new ModelRetry('expected {"city": string, "celsius": number}');
  }
  return { city: value.city, celsius: value.celsius };
}

const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current temperature of a city, in °C.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: () => '31',
});

function describeMessage(message: Message): string {
  const calls = (message.toolCalls ?? []).map((call) => `${call.name}(${call.args})`);
  if (calls.length > 0) return `${message.role} calls ${calls.join(', ')}`;
  if (message.role === 'tool') return `tool ${message.toolName ?? ''}: ${message.content ?? ''}`;
  return `${message.role}: ${message.content ?? ''}`;
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // The model looks the temperature up, then delivers the report through the output tool.
  const model = new ScriptedModel([
    toolCallResponse([{ id: 'call-1', name: 'get_weather', args: { city: 'Lagos' } }]),
    toolCallResponse([
      { id: 'out-1', name: 'record_weather', args: { city: 'Lagos', celsius: 31 } },
    ]),
  ]);
  const agent = new Agent<undefined, Report>({
    model,
    tools: [getWeather],
    outputTool: {
      name: 'record_weather',
      description: 'Record the final weather report.',
      schema: {
        type: 'object',
        properties: { city: { type: 'string' }, celsius: { type: 'number' } },
        required: ['city', 'celsius'],
        additionalProperties: false,
      },
    },
    // The decoder validates the output tool's arguments exactly like a text answer.
    output: decodeJSON(toReport),
  });

  const result = await agent.run('Record the weather in Lagos.');

  log(`report: ${result.output.city}, ${result.output.celsius}°C`);
  // The output tool is advertised after the agent's own tools, marked `output: true`.
  const tools = model.requests[0]?.tools ?? [];
  log(
    `tools advertised: ${tools.map((tool) => (tool.output === true ? `${tool.name} (output)` : tool.name)).join(', ')}`,
  );
  // The output call is closed with a recorded result, so the history stays valid for providers.
  for (const message of result.messages) log(`  ${describeMessage(message)}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
