/**
 * Standard Schema: a zod schema declares a tool's arguments and the agent's output once — golem
 * derives the JSON Schema sent to the model from it (zod's own converter), validates what comes
 * back with it, and types `args` and `result.output` from it. Validation issues reach the model as
 * a short `path: message` rejection it corrects. valibot and arktype schemas work the same way.
 */
import { Agent, defineTool, jsonSchemaOf, schemaOutput, type ToolContext } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import * as v from 'valibot';
import { z } from 'zod';

interface Deps {
  temperatures: Record<string, number>;
}

const forecast = defineTool({
  name: 'forecast',
  description: 'Temperature in a city',
  args: z.object({
    city: z.string().min(1).describe('City name, e.g. "Lagos"'),
    unit: z.enum(['c', 'f']).default('c'),
  }),
  // args is typed { city: string; unit: 'c' | 'f' }; the return value may be any JSON value.
  execute: ({ city, unit }, ctx: ToolContext<Deps>) => {
    const celsius = ctx.deps.temperatures[city] ?? 20;
    return { city, temperature: unit === 'c' ? celsius : Math.round(celsius * 1.8 + 32), unit };
  },
});

const Report = z.object({
  city: z.string(),
  celsius: z.int(),
  advice: z.enum(['umbrella', 'sunscreen', 'coat']),
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const model = new ScriptedModel([
    // The first call sends a number for the city: rejected, fed back, corrected.
    toolCallResponse([{ id: 'call-1', name: 'forecast', args: { city: 7 } }]),
    toolCallResponse([{ id: 'call-2', name: 'forecast', args: { city: 'Lagos' } }]),
    // The first answer has an unknown advice value: rejected, fed back, corrected.
    textResponse('{"city":"Lagos","celsius":31,"advice":"hat"}'),
    textResponse('{"city":"Lagos","celsius":31,"advice":"sunscreen"}'),
  ]);
  const agent = new Agent({
    model,
    tools: [forecast],
    ...schemaOutput(Report), // decoder + outputSchema, both from the zod schema
    toolRetries: 1,
    outputRetries: 1,
  });

  const result = await agent.run('Weather advice for Lagos?', {
    deps: { temperatures: { Lagos: 31 } },
  });

  const report: z.infer<typeof Report> = result.output; // typed, no cast
  log(`${report.city}: ${report.celsius}°C, bring ${report.advice}`);
  log(`tool schema sent: ${JSON.stringify(model.requests[0]?.tools[0]?.schema)}`);
  for (const message of result.messages.slice(1))
    log(`  ${message.role}: ${message.content ?? `calls ${message.toolCalls?.[0]?.args ?? ''}`}`);

  // The same arguments declared with valibot give the same JSON Schema (through
  // @valibot/to-json-schema); `defineTool({ args: valibotArgs, … })` works the same way.
  const valibotArgs = v.object({
    city: v.pipe(v.string(), v.minLength(1)),
    unit: v.optional(v.picklist(['c', 'f']), 'c'),
  });
  log(`valibot: ${JSON.stringify(jsonSchemaOf(valibotArgs))}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
