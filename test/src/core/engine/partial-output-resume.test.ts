/** `resumeStream` carries `partialOutput` like `runStream`: the resumed structured answer streams as snapshots. */
import { Agent, decodeJSON, defineTool, type ModelResponse } from 'golem';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';

interface Receipt {
  paid: number;
  note: string;
}

const pay = defineTool({
  name: 'pay',
  schema: { type: 'object', properties: { amount: { type: 'number' } } },
  approval: true,
  execute: () => 'paid',
});

const ANSWER = '{"paid":5,"note":"done"}';

test('resumeStream yields partial outputs of the resumed run, ending with the validated output', async () => {
  const model = new StreamFunctionModel(async (request, emit): Promise<ModelResponse> => {
    if (request.messages.at(-1)?.role !== 'tool')
      return toolCallResponse([{ id: 'pay-1', name: 'pay', args: { amount: 5 } }]);
    for (const piece of ['{"paid":5', ',"note":"do', 'ne"}']) await emit({ content: piece });
    return textResponse(ANSWER);
  });
  const agent = new Agent<undefined, Receipt, true>({
    model,
    tools: [pay],
    deferredTools: true,
    outputSchema: {
      type: 'object',
      properties: { paid: { type: 'number' }, note: { type: 'string' } },
      required: ['paid', 'note'],
    },
    output: decodeJSON((value) => value as Receipt),
  });
  const paused = await agent.run('pay 5');

  const stream = agent.resumeStream(paused.messages, {
    approvals: { 'pay-1': { approved: true } },
  });
  const partials: unknown[] = [];
  for await (const partial of stream.partialOutput) partials.push(partial);
  const { output } = await stream.result;

  // `5` could still grow into `50`: a number shows once something follows it.
  expect(partials).toEqual([
    {},
    { paid: 5, note: 'do' },
    { paid: 5, note: 'done' },
    { paid: 5, note: 'done' },
  ]);
  expect(partials.at(-1)).toBe(output);
});
