/**
 * ADV-14: hostile tool arguments against class-validator DTOs. Each is rejected with a
 * ModelRetry-style result to the model, the run continues (the corrected call runs), nothing is
 * polluted, and the tool never sees the hostile value.
 */
import { IsBoolean, IsOptional, IsString } from 'class-validator';
import { Agent, Tool, agentFromClass, compileAgentClass } from 'golem/decorators';
import { ModelRetry } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

class ProfileArgs {
  @IsString() name!: string;
  @IsOptional() @IsBoolean() notify?: boolean;
}

@Agent({ toolRetries: 1 })
class ProfileAgent {
  readonly received: unknown[] = [];

  @Tool({ description: 'Updates the profile' })
  update(args: ProfileArgs): string {
    this.received.push(args);
    return `updated ${args.name}`;
  }
}

const hostile: Array<[string, string, string]> = [
  [
    '{"__proto__":{"isAdmin":true}}',
    '{"__proto__":{"isAdmin":true}}',
    'the arguments are not valid JSON (JSON object key "__proto__" is not allowed)',
  ],
  [
    '{"constructor":{"prototype":{}}}',
    '{"constructor":{"prototype":{}}}',
    'the arguments are not valid JSON (JSON object key "constructor" is not allowed)',
  ],
  ['null', 'null', 'expected the arguments as a JSON object, got null'],
  ['42', '42', 'expected the arguments as a JSON object, got a number'],
  ['"[]"', '"[]"', 'expected the arguments as a JSON object, got a string'],
  ['[]', '[]', 'expected the arguments as a JSON object, got an array'],
  [
    'extra properties',
    '{"name":"Ada","isAdmin":true,"role":"root"}',
    'isAdmin: is not an allowed property; role: is not an allowed property',
  ],
  [
    '10k-deep nesting',
    `{"name":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
    'the arguments are not valid JSON (JSON nesting depth 10001 exceeds the limit of 256)',
  ],
  [
    'a 50 MB string',
    `{"name":"${'a'.repeat(50 * 1024 * 1024)}"}`,
    'the arguments are not valid JSON (JSON text is 52428811 characters; the limit is 4194304)',
  ],
];

describe('ADV-14 hostile tool arguments', () => {
  test.each(hostile)(
    'ADV-14 %s is rejected to the model, the run continues, nothing is polluted',
    async (_label, args, reason) => {
      const model = new ScriptedModel([
        toolCallResponse([{ id: 'bad', name: 'update', args }]),
        toolCallResponse([{ id: 'good', name: 'update', args: { name: 'Ada' } }]),
        textResponse('done'),
      ]);
      const instance = new ProfileAgent();

      const result = await agentFromClass(instance, { model }).run('update me');

      expect(result.output).toBe('done');
      const rejection = result.messages[2];
      expect(rejection).toMatchObject({ role: 'tool', toolCallId: 'bad', toolName: 'update' });
      expect(rejection?.content).toContain(`Your tool call was rejected: ${reason}`);
      expect(rejection?.content?.length).toBeLessThan(400);
      expect(result.messages[4]).toMatchObject({ toolCallId: 'good', content: 'updated Ada' });
      expect(instance.received).toEqual([Object.assign(new ProfileArgs(), { name: 'Ada' })]);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('isAdmin');
    },
  );

  test('ADV-14 the exact rejection text the model receives for invalid arguments', async () => {
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'bad', name: 'update', args: { name: 7, notify: 'yes' } }]),
      toolCallResponse([{ id: 'good', name: 'update', args: { name: 'Ada' } }]),
      textResponse('done'),
    ]);
    const result = await agentFromClass(new ProfileAgent(), { model }).run('update me');
    expect(result.messages[2]?.content).toBe(
      'Your tool call was rejected: name: must be a string; notify: must be a boolean value. Correct the arguments and call the tool again.',
    );
  });

  test('ADV-14 the parse hook also guards values that did not come through the safe JSON parse', () => {
    const parse = compileAgentClass(ProfileAgent).tools[0]?.parse;
    if (parse === undefined) throw new Error('no tool');
    for (const text of [
      '{"__proto__":{"isAdmin":true}}',
      '{"name":"x","constructor":{"prototype":{}}}',
    ]) {
      expect(() => parse(JSON.parse(text))).toThrow(ModelRetry);
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  test('ADV-14 without a retry budget a hostile call fails the run at the tool stage, typed', async () => {
    @Agent()
    class Strict {
      @Tool() update(_args: ProfileArgs): string {
        return 'never';
      }
    }
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'bad', name: 'update', args: '42' }]),
    ]);
    await expect(agentFromClass(new Strict(), { model }).run('x')).rejects.toMatchObject({
      kind: 'RunError',
      stage: 'tool',
    });
  });
});
