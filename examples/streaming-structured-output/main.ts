/**
 * Streaming structured output: `runStream(...).partialOutput` yields the output while the model
 * writes it — a `DeepPartial<Output>` snapshot each time the JSON parses further — and ends with
 * the validated output. Here a decorated `@Output` class in tool mode, then a native schema.
 */
import { IsInt, IsString } from 'class-validator';
import { Agent as EngineAgent, decodeJSON, type ModelResponse } from 'golem';
import { Agent, OUTPUT_TYPE, Output, agentFromClass } from 'golem/decorators';
import { StreamFunctionModel, textResponse } from 'golem/testing';

class Forecast {
  @IsString() city!: string;
  @IsInt() celsius!: number;
  @IsString() summary!: string;
}

@Agent()
@Output(Forecast, { mode: 'tool', name: 'record_forecast' })
class ForecastAgent {
  declare readonly [OUTPUT_TYPE]: Forecast;
}

const ANSWER = '{"city":"Lagos","celsius":31,"summary":"Hot and humid, with a late storm."}';

/** Splits `text` into pieces of `size` characters, the way a provider streams tokens. */
function pieces(text: string, size: number): string[] {
  return Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
    text.slice(i * size, i * size + size),
  );
}

/** A model that streams the output tool's arguments in small fragments. */
const toolModel = new StreamFunctionModel(async (_request, emit): Promise<ModelResponse> => {
  await emit({ toolCalls: [{ index: 0, id: 'call-1', name: 'record_forecast' }] });
  for (const piece of pieces(ANSWER, 12))
    await emit({ toolCalls: [{ index: 0, argsFragment: piece }] });
  return {
    message: {
      role: 'assistant',
      toolCalls: [{ id: 'call-1', name: 'record_forecast', args: ANSWER }],
    },
    usage: { inputTokens: 20, outputTokens: 18 },
  };
});

/** A model that streams its answer text (native structured output). */
const nativeModel = new StreamFunctionModel(async (_request, emit): Promise<ModelResponse> => {
  const answer = '{"items":["umbrella","water","sunscreen"]}';
  for (const piece of pieces(answer, 9)) await emit({ content: piece });
  return textResponse(answer);
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  log('-- decorated @Output, tool mode --');
  const stream = agentFromClass(new ForecastAgent(), { model: toolModel }).runStream('Lagos?');
  for await (const partial of stream.partialOutput) {
    const kind = partial instanceof Forecast ? 'final  ' : 'partial';
    log(`${kind} ${JSON.stringify(partial)}`);
  }
  const { output } = await stream.result;
  log(`result is a Forecast instance: ${String(output instanceof Forecast)}`);

  log('-- native outputSchema --');
  const packer = new EngineAgent({
    model: nativeModel,
    outputSchema: {
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'string' } } },
      required: ['items'],
    },
    output: decodeJSON((value) => value as { items: string[] }),
  });
  for await (const partial of packer.runStream('What do I pack?').partialOutput)
    log(`items so far: ${(partial.items ?? []).join(', ')}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
