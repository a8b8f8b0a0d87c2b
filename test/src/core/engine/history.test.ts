import {
  Agent,
  ModelRetry,
  RunError,
  RunInputError,
  defineTool,
  type Instructions,
  type Message,
  type Model,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const schema = { type: 'object' } as const;

/** Awaits a run that must fail with a RunInputError and returns it. */
async function inputError(run: Promise<unknown>): Promise<RunInputError> {
  try {
    await run;
  } catch (error) {
    if (RunInputError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to be rejected');
}

/** A model that fails the test if it is ever called. */
function untouchableModel(): Model & { generate: jest.Mock } {
  return { generate: jest.fn(() => Promise.reject(new Error('the model must not be called'))) };
}

const roles = (messages: readonly Message[] | undefined): string[] =>
  (messages ?? []).map((m) => m.role);
const contents = (messages: readonly Message[] | undefined): (string | undefined)[] =>
  (messages ?? []).map((m) => m.content);

describe('§17.2 continuation', () => {
  test('HI-1 a result continues as history: request 2 is system, user, assistant, user and evidence grows to 5', async () => {
    const model = new ScriptedModel([textResponse('first answer'), textResponse('second answer')]);
    const agent = new Agent({ model, instructions: 'You are terse.' });
    const first = await agent.run('first question');
    const second = await agent.run('second question', { history: first.messages });

    const request = model.requests[1];
    expect(roles(request?.messages)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(contents(request?.messages)).toEqual([
      'You are terse.',
      'first question',
      'first answer',
      'second question',
    ]);
    expect(second.messages).toHaveLength(5);
    expect(second.messages[4]).toEqual({ role: 'assistant', content: 'second answer' });
    expect(second.output).toBe('second answer');
  });

  test('HI-2 a stale system message in history is replaced by the current instructions', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const history: Message[] = [
      { role: 'system', content: 'stale' },
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ];
    await new Agent({ model, instructions: 'fresh' }).run('again', { history });
    expect(model.lastRequest?.messages).toEqual([
      { role: 'system', content: 'fresh' },
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: 'again' },
    ]);
  });

  test('HI-3 without instructions the request is the history plus the prompt', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const history: Message[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ];
    await new Agent({ model }).run('again', { history });
    expect(model.lastRequest?.messages).toEqual([...history, { role: 'user', content: 'again' }]);
  });

  test('HI-4 without instructions every system message of the history is dropped', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const history: Message[] = [
      { role: 'system', content: 'old rules' },
      { role: 'user', content: 'hello' },
      { role: 'system', content: 'more old rules' },
      { role: 'assistant', content: 'hi' },
    ];
    const result = await new Agent({ model }).run('again', { history });
    const expected: Message[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: 'again' },
    ];
    expect(model.lastRequest?.messages).toEqual(expected);
    expect(result.messages).toEqual([...expected, { role: 'assistant', content: 'ok' }]);
  });

  test('HI-5 a tool turn after history keeps the full conversation in order', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'get_player_name' }]),
      textResponse('The player is Anne.'),
    ]);
    const tool = defineTool({ name: 'get_player_name', schema, execute: () => 'Anne' });
    const history: Message[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
    ];
    const result = await new Agent({ model, tools: [tool] }).run('Who is playing?', { history });
    expect(result.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello!' },
      { role: 'user', content: 'Who is playing?' },
      { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'get_player_name', args: '{}' }] },
      { role: 'tool', content: 'Anne', toolCallId: 'call-1', toolName: 'get_player_name' },
      { role: 'assistant', content: 'The player is Anne.' },
    ]);
  });

  test('HI-6 the instructions function runs per run with that run’s deps and replaces the earlier system message', async () => {
    const model = new ScriptedModel([textResponse('Hi Anne'), textResponse('Hi Ben')]);
    const agent = new Agent<{ name: string }>({
      model,
      instructions: (ctx) => `The player is ${ctx.deps.name}.`,
    });
    const first = await agent.run('hello', { deps: { name: 'Anne' } });
    expect(first.messages[0]).toEqual({ role: 'system', content: 'The player is Anne.' });
    const second = await agent.run('hello again', {
      deps: { name: 'Ben' },
      history: first.messages,
    });
    const system = second.messages.filter((m) => m.role === 'system');
    expect(system).toEqual([{ role: 'system', content: 'The player is Ben.' }]);
    expect(model.requests[1]?.messages[0]).toEqual({
      role: 'system',
      content: 'The player is Ben.',
    });
    expect(contents(second.messages)).toEqual([
      'The player is Ben.',
      'hello',
      'Hi Anne',
      'hello again',
      'Hi Ben',
    ]);
  });

  test('HI-6 the instructions function is evaluated once per run, not per output correction round', async () => {
    const fn = jest.fn(() => 'Answer with a number.');
    let attempts = 0;
    const model = new ScriptedModel([textResponse('seven'), textResponse('7')]);
    const agent = new Agent<undefined, number>({
      model,
      instructions: fn,
      outputRetries: 1,
      output: (response) => {
        attempts++;
        const value = Number(response.message.content);
        if (Number.isNaN(value)) throw new ModelRetry('not a number');
        return value;
      },
    });
    const result = await agent.run('how many?');
    expect(result.output).toBe(7);
    expect(attempts).toBe(2);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(model.requests[1]?.messages[0]).toEqual({
      role: 'system',
      content: 'Answer with a number.',
    });
  });
});

describe('§17.1 instructions join', () => {
  test.each<[string, Instructions<undefined>, string | undefined]>([
    [
      'static and dynamic',
      ['Be concise.', () => 'Today is Tuesday.'],
      'Be concise.\n\nToday is Tuesday.',
    ],
    ['static and an empty dynamic', ['Be concise.', () => ''], 'Be concise.'],
    ['an empty static and dynamic', ['', () => 'Today is Tuesday.'], 'Today is Tuesday.'],
    ['dynamic only', () => 'Today is Tuesday.', 'Today is Tuesday.'],
    ['static only', 'Be concise.', 'Be concise.'],
    ['both empty', ['', () => ''], undefined],
  ])('HI-7 %s', async (_case, instructions, system) => {
    const model = new ScriptedModel([textResponse('ok')]);
    await new Agent({ model, instructions }).run('q');
    const expected: Message[] = system === undefined ? [] : [{ role: 'system', content: system }];
    expect(model.lastRequest?.messages).toEqual([...expected, { role: 'user', content: 'q' }]);
  });
});

describe('run-start validation of history', () => {
  test.each<[string, Message[], string]>([
    [
      'parts on an assistant message',
      [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: 'look',
          parts: [{ kind: 'image', url: 'https://example.com/a.png' }],
        },
      ],
      'history message 1: parts are only supported on user messages',
    ],
    [
      'parts on a tool message',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'x', args: '{}' }] },
        {
          role: 'tool',
          content: 'r',
          toolCallId: 'call-1',
          toolName: 'x',
          parts: [{ kind: 'image', url: 'https://example.com/a.png' }],
        },
      ],
      'history message 2: parts are only supported on user messages',
    ],
    [
      'thinking on a user message',
      [{ role: 'user', content: 'hi', thinking: [{ text: 'hmm' }] }],
      'history message 0: thinking is only supported on assistant messages',
    ],
    [
      'thinking on a tool message',
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'x', args: '{}' }] },
        {
          role: 'tool',
          content: 'r',
          toolCallId: 'call-1',
          toolName: 'x',
          thinking: [{ text: 'hmm' }],
        },
      ],
      'history message 2: thinking is only supported on assistant messages',
    ],
    [
      'an invalid role',
      [
        { role: 'user', content: 'hi' },
        { role: 'narrator', content: 'meanwhile' } as unknown as Message,
      ],
      'history message 1: role must be one of system, user, assistant, tool, got "narrator"',
    ],
  ])(
    '%s rejects the run with RunInputError before any model call',
    async (_case, history, message) => {
      const model = untouchableModel();
      const error = await inputError(new Agent({ model }).run('q', { history }));
      expect(error.message).toBe(message);
      expect(RunError.is(error)).toBe(false);
      expect(model.generate).not.toHaveBeenCalled();
    },
  );

  test('thinking on an assistant message is accepted and kept', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const history: Message[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: 'hello',
        thinking: [{ text: 'greet back', signature: 'sig-1' }],
      },
    ];
    await new Agent({ model }).run('q', { history });
    expect(model.lastRequest?.messages[1]).toEqual(history[1]);
  });
});
