/**
 * Type-level tests (checked by `tsc --noEmit`; the runtime assertions are trivial): a Standard
 * Schema types a tool's `args` and an agent's output without the type being written twice.
 */
import { type } from 'arktype';
import { expectTypeOf } from 'expect-type';
import * as v from 'valibot';
import { z } from 'zod';
import {
  Agent,
  decodeJSON,
  defineTool,
  schemaOutput,
  type CompletedResult,
  type OutputDecoder,
  type StandardSchemaV1,
  type ToolContext,
} from 'golem';
import { TestModel } from 'golem/testing';

interface User {
  name: string;
}

const Trip = z.object({ city: z.string(), days: z.int().default(0) });

test('defineTool({ args }) types execute’s args as the schema’s output, for each library', () => {
  defineTool({
    name: 'zod',
    args: Trip,
    execute: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; days: number }>();
      return args.city;
    },
  });
  defineTool({
    name: 'valibot',
    args: v.object({ city: v.string(), days: v.optional(v.number()) }),
    execute: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number | undefined }>();
      return args;
    },
  });
  defineTool({
    name: 'arktype',
    args: type({ city: 'string', 'days?': 'number' }),
    execute: (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; days?: number }>();
      return args;
    },
  });
  expect(true).toBe(true);
});

test('Deps comes from a ToolContext annotation alongside the inferred args', () => {
  const tool = defineTool({
    name: 'greet',
    args: z.object({ greeting: z.string() }),
    execute: (args, ctx: ToolContext<User>) => {
      expectTypeOf(args.greeting).toBeString();
      return `${args.greeting}, ${ctx.deps.name}`;
    },
  });
  new Agent<User>({ model: new TestModel(), tools: [tool] });
  expect(tool.name).toBe('greet');
});

test('a schema whose output does not fit what execute reads does not compile', () => {
  // Never called: these lines only have to (not) compile; running them would throw.
  const typeOnly = (): void => {
    defineTool({
      name: 'wrong',
      args: z.object({ n: z.number() }),
      execute: (args) => {
        // @ts-expect-error -- `n` is a number, not a string
        const n: string = args.n;
        return n;
      },
    });
    // @ts-expect-error -- `args` and `parse` are exclusive
    defineTool({ name: 'both', args: Trip, parse: (x: unknown) => x, execute: () => '' });
    // @ts-expect-error -- a JSON Schema goes in `schema`, not `args`
    defineTool({ name: 'json', args: { type: 'object' }, execute: () => '' });
  };
  expect(typeof typeOnly).toBe('function');
});

test('schemaOutput types the result’s output, in both modes', async () => {
  const Forecast = z.object({ city: z.string(), celsius: z.int() });
  const native = new Agent({ model: new TestModel(), ...schemaOutput(Forecast) });
  expectTypeOf(native).toEqualTypeOf<Agent<unknown, { city: string; celsius: number }>>();
  const tool = new Agent({
    model: new TestModel(),
    ...schemaOutput(v.object({ ok: v.boolean() }), { mode: 'tool' }),
  });
  const result = await tool.run('go');
  expectTypeOf(result).toEqualTypeOf<CompletedResult<{ ok: boolean }>>();
  expect(typeof result.output.ok).toBe('boolean');
});

test('decodeJSON(schema) is an OutputDecoder of the schema’s output; arktype (callable) too', () => {
  expectTypeOf(decodeJSON(Trip)).toEqualTypeOf<OutputDecoder<{ city: string; days: number }>>();
  expectTypeOf(decodeJSON(type({ a: 'string' }))).toEqualTypeOf<OutputDecoder<{ a: string }>>();
  expectTypeOf(decodeJSON((value) => value as number)).toEqualTypeOf<OutputDecoder<number>>();
  expect(true).toBe(true);
});

test('StandardSchemaV1.InferInput / InferOutput read the types of any Standard Schema', () => {
  expectTypeOf<StandardSchemaV1.InferInput<typeof Trip>>().toEqualTypeOf<{
    city: string;
    days?: number;
  }>();
  expectTypeOf<StandardSchemaV1.InferOutput<typeof Trip>>().toEqualTypeOf<{
    city: string;
    days: number;
  }>();
  expectTypeOf(Trip).toExtend<StandardSchemaV1<unknown, { city: string; days: number }>>();
  expect(true).toBe(true);
});
