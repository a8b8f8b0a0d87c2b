/** sseFromRun with `partialOutput`: `partial` events carry the output so far, then `result`. */
import { firstValueFrom, toArray } from 'rxjs';
import { Agent, decodeJSON, type ModelResponse } from 'golem';
import { formatSseEvent, sseFromRun } from 'golem/nestjs';
import { StreamFunctionModel, textResponse } from 'golem/testing';

const ANSWER = '{"city":"Lagos","celsius":31}';

test('partial events stream the structured output, then one result event', async () => {
  const model = new StreamFunctionModel(async (_r, emit): Promise<ModelResponse> => {
    for (const piece of ['{"city":"La', 'gos","celsius":31', '}']) await emit({ content: piece });
    return textResponse(ANSWER);
  });
  const agent = new Agent({
    model,
    outputSchema: {
      type: 'object',
      properties: { city: { type: 'string' }, celsius: { type: 'integer' } },
    },
    output: decodeJSON(),
  });
  const events = await firstValueFrom(
    sseFromRun((signal) => agent.runStream('Weather?', { signal }), { partialOutput: true }).pipe(
      toArray(),
    ),
  );

  expect(events.map((e) => e.type)).toEqual(['partial', 'partial', 'partial', 'partial', 'result']);
  expect(events.slice(0, 4).map((e) => e.data)).toEqual([
    { city: 'La' },
    { city: 'Lagos' },
    { city: 'Lagos', celsius: 31 },
    { city: 'Lagos', celsius: 31 },
  ]);
  expect(formatSseEvent(events[0]!)).toBe('event: partial\ndata: {"city":"La"}\n\n');
  expect(events.at(-1)).toMatchObject({
    type: 'result',
    data: { output: { city: 'Lagos', celsius: 31 } },
  });
});
