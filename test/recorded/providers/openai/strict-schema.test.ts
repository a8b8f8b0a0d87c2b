/** The OpenAI strict-dialect compiler on a schema a real client sent to Azure. */
import type { JsonSchema } from 'golem';
import { toStrictSchema } from 'golem/providers/openai';
import { fixtureJson } from './recorded';

test('z06: an already strict schema ($defs, $ref, titles) compiles to itself', () => {
  const request = fixtureJson('azure', 'z06-structured-output.request.json') as {
    response_format: { json_schema: { schema: JsonSchema } };
  };
  const schema = request.response_format.json_schema.schema;
  expect(toStrictSchema(schema)).toEqual(schema);
});
