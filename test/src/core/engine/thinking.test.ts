import {
  Agent,
  RunError,
  RunInputError,
  defineTool,
  redactedThinking,
  signedThinking,
  thinkingText,
  type Delta,
  type Message,
  type ModelResponse,
  type ThinkingBlock,
} from 'golem';
import { thinkingProblem } from '../../../../src/core/contract/thinking';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

const lookup = defineTool({ name: 'lookup', schema: { type: 'object' }, execute: () => 'found' });

/** A tool turn carrying two thinking blocks (one signed, one redacted) and a call signature. */
function thinkingToolTurn(): ModelResponse {
  const response = toolCallResponse(
    [{ id: 'call-1', name: 'lookup', args: { q: 'x' }, signature: 'call-sig==' }],
    { inputTokens: 4, outputTokens: 2 },
  );
  response.message.thinking = [
    signedThinking('I should look it up.', 'sig-A+/='),
    redactedThinking('ENCRYPTED\u0000payload'),
  ];
  return response;
}

describe('thinking blocks (spec §20.1)', () => {
  test('TK-1 valid constructors: text-only, text+signature, redacted', () => {
    const blocks: ThinkingBlock[] = [
      thinkingText('hmm'),
      signedThinking('hmm', 'sig'),
      redactedThinking('opaque'),
    ];

    expect(blocks).toEqual([
      { text: 'hmm' },
      { text: 'hmm', signature: 'sig' },
      { redacted: 'opaque' },
    ]);
    expect(blocks.map(thinkingProblem)).toEqual([undefined, undefined, undefined]);
    expect(thinkingProblem({ signature: 'sig' })).toBeUndefined();
  });

  test.each<[string, ThinkingBlock, string]>([
    [
      'neither text, signature nor redacted',
      {},
      'thinking block has neither text, a signature nor redacted data',
    ],
    [
      'both text and redacted',
      { text: 'a', redacted: 'b' },
      'thinking block has both text and redacted data; set exactly one',
    ],
    [
      'signature with redacted',
      { redacted: 'b', signature: 'sig' },
      'a redacted thinking block cannot carry a signature',
    ],
  ])('TK-1 thinkingProblem rejects %s', (_name, block, problem) => {
    expect(thinkingProblem(block)).toBe(problem);
  });

  test('TK-2 a history user message carrying thinking rejects with a plain error, no model call', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model });
    const history: Message[] = [
      { role: 'user', content: 'q', thinking: [thinkingText('not mine')] },
    ];

    const error = await rejection(agent.run('next', { history }));

    expect(RunInputError.is(error)).toBe(true);
    expect(RunError.is(error)).toBe(false);
    expect((error as Error).message).toBe(
      'history message 0: thinking is only supported on assistant messages',
    );
    expect(model.calls).toBe(0);
  });

  test('TK-2 a malformed block on a history assistant message names message and block', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model });
    const history: Message[] = [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'a',
        thinking: [thinkingText('fine'), { redacted: 'x', signature: 'y' }],
      },
    ];

    const error = await rejection(agent.run('next', { history }));

    expect(RunInputError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'history message 1 thinking block 1: a redacted thinking block cannot carry a signature',
    );
    expect(model.calls).toBe(0);
  });

  test('TK-3 evidence preserves two thinking blocks and the call signature exactly', async () => {
    const model = new ScriptedModel([thinkingToolTurn(), textResponse('done')]);
    const agent = new Agent({ model, tools: [lookup] });

    const result = await agent.run('question');

    expect(result.messages[1]).toEqual({
      role: 'assistant',
      toolCalls: [{ id: 'call-1', name: 'lookup', args: '{"q":"x"}', signature: 'call-sig==' }],
      thinking: [
        { text: 'I should look it up.', signature: 'sig-A+/=' },
        { redacted: 'ENCRYPTED\u0000payload' },
      ],
    });
    expect(model.requests[1]?.messages[1]).toEqual(result.messages[1]);
  });

  test('TK-3 continuing the conversation sends the thinking blocks back unchanged', async () => {
    const model = new ScriptedModel([
      thinkingToolTurn(),
      textResponse('done'),
      textResponse('again'),
    ]);
    const agent = new Agent({ model, tools: [lookup] });
    const first = await agent.run('question');

    await agent.run('follow-up', { history: first.messages });

    expect(model.lastRequest?.messages).toEqual([
      ...first.messages,
      { role: 'user', content: 'follow-up' },
    ]);
    expect(model.lastRequest?.messages[1]?.thinking).toEqual([
      signedThinking('I should look it up.', 'sig-A+/='),
      redactedThinking('ENCRYPTED\u0000payload'),
    ]);
    expect(model.lastRequest?.messages[1]?.toolCalls?.[0]?.signature).toBe('call-sig==');
  });

  test('TK-3 history thinking survives repair of a dangling call on the same message', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model, tools: [lookup] });
    const assistant: Message = {
      role: 'assistant',
      toolCalls: [{ id: 'c9', name: 'lookup', args: '{}', signature: 's9' }],
      thinking: [signedThinking('plan', 'sig-plan')],
    };

    await agent.run('next', { history: [{ role: 'user', content: 'q' }, assistant] });

    expect(model.lastRequest?.messages[1]).toEqual(assistant);
  });

  test('TK-4 streaming: thinking deltas precede the content delta of the same turn', async () => {
    const response = textResponse('the answer');
    response.message.thinking = [signedThinking('step one', 'sig-1'), thinkingText('step two')];
    const agent = new Agent({ model: new ScriptedModel([response]) });

    const stream = agent.runStream('think');
    const deltas: Delta[] = [];
    for await (const delta of stream) deltas.push(delta);
    const result = await stream.result;

    expect(deltas).toEqual([
      { thinking: [{ index: 0, text: 'step one', signature: 'sig-1' }] },
      { thinking: [{ index: 1, text: 'step two' }] },
      { content: 'the answer' },
    ]);
    expect(result.messages[1]).toEqual({
      role: 'assistant',
      content: 'the answer',
      thinking: [{ text: 'step one', signature: 'sig-1' }, { text: 'step two' }],
    });
  });

  test('thinking on a final answer is evidence, not output', async () => {
    const response = textResponse('42');
    response.message.thinking = [thinkingText('compute')];
    const agent = new Agent({ model: new ScriptedModel([response]) });

    const result = await agent.run('q');

    expect(result.output).toBe('42');
    expect(result.messages[1]?.thinking).toEqual([{ text: 'compute' }]);
  });
});
