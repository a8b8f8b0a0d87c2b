/**
 * `classTools(instance)`: a decorated class's @Tool methods as plain tools — and served over MCP,
 * where the DTO validation (class-validator) answers the client with an `isError` correction even
 * when the JSON Schema check is turned off.
 */
import { IsInt, Max, Min } from 'class-validator';
import { ModelRetry, type ToolContext } from 'golem';
import { Agent, Describe, Tool, classTools } from 'golem/decorators';
import { connectMcp, createMcpServer, serveMcpHttp } from 'golem/mcp';
import { configErrorOf } from '../support/config-error';

class DiceArgs {
  @Describe('Number of sides') @IsInt() @Min(2) @Max(100) sides!: number;
}

@Agent({ model: 'test' })
class Dice {
  constructor(private readonly result: number) {}

  @Tool({ description: 'Roll a die' })
  roll(args: DiceArgs): string {
    return `rolled ${Math.min(this.result, args.sides)} of ${args.sides}`;
  }
}

const ctx: ToolContext = {
  deps: undefined,
  signal: new AbortController().signal,
  callId: 'c',
  toolName: 'roll',
  rawArgs: '{}',
  approved: false,
  retry: 0,
};

test('the @Tool methods become tools bound to the instance, with DTO schemas and validation', async () => {
  const [roll] = classTools(new Dice(4));
  expect(roll?.name).toBe('roll');
  expect(roll?.schema).toMatchObject({
    properties: { sides: { type: 'integer', minimum: 2, maximum: 100 } },
  });
  expect(await roll?.execute({ sides: 6 }, ctx)).toBe('rolled 4 of 6');
  const error: unknown = await Promise.resolve()
    .then(() => roll?.execute({ sides: 1 }, ctx))
    .catch((e: unknown) => e);
  expect(ModelRetry.is(error)).toBe(true);
});

test('a class instead of an instance is a definition error', () => {
  expect(() => classTools(Dice as never)).toThrow(configErrorOf('decorators'));
});

test('served over MCP without the schema check: the DTO validation still answers isError', async () => {
  const serving = await serveMcpHttp(
    createMcpServer({ tools: classTools(new Dice(3)), validateInput: false }),
  );
  const client = await connectMcp({ transport: { kind: 'http', url: serving.url } });
  try {
    const [roll] = await client.tools();
    const error: unknown = await Promise.resolve(roll?.execute({ sides: 500 }, ctx)).catch(
      (e: unknown) => e,
    );
    expect(ModelRetry.is(error) && error.reason).toMatch(
      /^tool roll failed: sides: must not be greater than 100/,
    );
    expect(await roll?.execute({ sides: 20 }, ctx)).toBe('rolled 3 of 20');
  } finally {
    await client.close();
    await serving.close();
  }
});
