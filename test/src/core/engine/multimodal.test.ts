import {
  Agent,
  RunError,
  RunInputError,
  imageData,
  imageUrl,
  type Message,
  type Part,
} from 'golem';
import { partProblem } from '../../../../src/core/contract/part';
import { ScriptedModel, textResponse } from 'golem/testing';

const PNG = 'image/png';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('part constructors and validation (spec §19.1)', () => {
  test('imageUrl and imageData build image parts', () => {
    const bytes = new Uint8Array([1, 2, 3]);

    expect(imageUrl('https://example.test/cat.png')).toEqual({
      kind: 'image',
      url: 'https://example.test/cat.png',
    });
    expect(imageData(PNG, bytes)).toEqual({ kind: 'image', data: bytes, mediaType: PNG });
    expect(imageData(PNG, bytes).data).toBe(bytes);
  });

  test.each<[string, Part, string | undefined]>([
    ['valid url part', { kind: 'image', url: 'https://example.test/a.png' }, undefined],
    ['valid data part', { kind: 'image', data: new Uint8Array([9]), mediaType: PNG }, undefined],
    [
      'kind video',
      { kind: 'video' as Part['kind'], url: 'https://example.test/a.mp4' },
      'unsupported part kind "video"',
    ],
    [
      'kind checked first (video with both url and data)',
      { kind: 'video' as Part['kind'], url: 'u', data: new Uint8Array([1]) },
      'unsupported part kind "video"',
    ],
    [
      'url and data both set',
      {
        kind: 'image',
        url: 'https://example.test/a.png',
        data: new Uint8Array([1]),
        mediaType: PNG,
      },
      'image part has both url and data; set exactly one',
    ],
    [
      'neither url nor data',
      { kind: 'image' },
      'image part has neither url nor data; set exactly one',
    ],
    [
      'data without media type',
      { kind: 'image', data: new Uint8Array([1]) },
      'image part with data needs a media type',
    ],
    [
      'data with an empty media type',
      { kind: 'image', data: new Uint8Array([1]), mediaType: '' },
      'image part with data needs a media type',
    ],
  ])('MM-4 partProblem: %s', (_name, part, problem) => {
    expect(partProblem(part)).toBe(problem);
  });
});

describe('multimodal runs (spec §19)', () => {
  test('MM-1 url and data parts ride on the prompt message in order; evidence keeps them', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71]);
    const model = new ScriptedModel([textResponse('two cats')]);
    const agent = new Agent({ model });

    const result = await agent.run('describe these', {
      parts: [imageUrl('https://example.test/cat.png'), imageData(PNG, bytes)],
    });

    const expected: Message = {
      role: 'user',
      content: 'describe these',
      parts: [
        { kind: 'image', url: 'https://example.test/cat.png' },
        { kind: 'image', data: new Uint8Array([137, 80, 78, 71]), mediaType: PNG },
      ],
    };
    expect(model.lastRequest?.messages).toEqual([expected]);
    expect(result.messages).toEqual([expected, { role: 'assistant', content: 'two cats' }]);
  });

  test('MM-1 parts survive into a continued conversation and are sent again', async () => {
    const model = new ScriptedModel([textResponse('a cat'), textResponse('grey')]);
    const agent = new Agent({ model });
    const first = await agent.run('what is this?', {
      parts: [imageUrl('https://example.test/cat.png')],
    });

    await agent.run('what colour?', { history: first.messages });

    expect(model.lastRequest?.messages).toEqual([
      {
        role: 'user',
        content: 'what is this?',
        parts: [{ kind: 'image', url: 'https://example.test/cat.png' }],
      },
      { role: 'assistant', content: 'a cat' },
      { role: 'user', content: 'what colour?' },
    ]);
  });

  test('MM-2 an invalid prompt part rejects with `prompt part 0`, before any model call', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model });

    const error = await rejection(agent.run('look', { parts: [{ kind: 'image' }] }));

    expect(RunInputError.is(error)).toBe(true);
    expect(RunError.is(error)).toBe(false);
    expect((error as Error).message).toBe(
      'prompt part 0: image part has neither url nor data; set exactly one',
    );
    expect(model.calls).toBe(0);
  });

  test('MM-2 the index names the offending prompt part', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model });

    const error = await rejection(
      agent.run('look', {
        parts: [
          imageUrl('https://example.test/a.png'),
          { kind: 'image', data: new Uint8Array([1]) },
        ],
      }),
    );

    expect((error as Error).message).toBe('prompt part 1: image part with data needs a media type');
    expect(model.calls).toBe(0);
  });

  test('MM-3 a history assistant message with parts rejects with `user messages`, before any model call', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model });
    const history: Message[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a', parts: [imageUrl('https://example.test/a.png')] },
    ];

    const error = await rejection(agent.run('next', { history }));

    expect(RunInputError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'history message 1: parts are only supported on user messages',
    );
    expect(model.calls).toBe(0);
  });

  test('MM-3 an invalid part on a history user message names message and part', async () => {
    const model = new ScriptedModel([textResponse('never')]);
    const agent = new Agent({ model });
    const history: Message[] = [
      {
        role: 'user',
        content: 'q',
        parts: [imageUrl('https://example.test/a.png'), { kind: 'image' }],
      },
    ];

    const error = await rejection(agent.run('next', { history }));

    expect(RunInputError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'history message 0 part 1: image part has neither url nor data; set exactly one',
    );
    expect(model.calls).toBe(0);
  });

  test('MM-5 mutating the caller byte array after the run does not alter the recorded request', async () => {
    const bytes = new Uint8Array([1, 2, 3, 4]);
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model });

    await agent.run('describe', { parts: [imageData(PNG, bytes)] });
    bytes.fill(0);

    expect(model.lastRequest?.messages[0]?.parts?.[0]?.data).toEqual(new Uint8Array([1, 2, 3, 4]));
    expect(model.requests[0]?.messages[0]?.parts?.[0]?.data).toEqual(new Uint8Array([1, 2, 3, 4]));
  });

  test('MM-5 mutating history bytes after the run does not alter the recorded request', async () => {
    const bytes = new Uint8Array([5, 6, 7]);
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model });

    await agent.run('again', {
      history: [
        { role: 'user', content: 'this', parts: [imageData(PNG, bytes)] },
        { role: 'assistant', content: 'seen' },
      ],
    });
    bytes.fill(0);

    expect(model.lastRequest?.messages[0]?.parts?.[0]?.data).toEqual(new Uint8Array([5, 6, 7]));
  });

  test('parts on a streaming run ride on the prompt message too', async () => {
    const model = new ScriptedModel([textResponse('a dog')]);
    const agent = new Agent({ model });

    await agent.runStream('what is it?', { parts: [imageUrl('https://example.test/dog.png')] })
      .result;

    expect(model.lastRequest?.messages).toEqual([
      {
        role: 'user',
        content: 'what is it?',
        parts: [{ kind: 'image', url: 'https://example.test/dog.png' }],
      },
    ]);
  });

  test('an empty parts array adds no parts field to the prompt message', async () => {
    const model = new ScriptedModel([textResponse('ok')]);
    const agent = new Agent({ model });

    await agent.run('plain', { parts: [] });

    expect(model.lastRequest?.messages).toEqual([{ role: 'user', content: 'plain' }]);
  });
});
