/**
 * ADV-13: tool names that collide with Object.prototype members. A model calling them gets the
 * undeclared-tool failure; nothing on the instance or Object.prototype is ever invoked, and a
 * tool explicitly named like a prototype member runs its own method only.
 */
import { IsString } from 'class-validator';
import { RunError, ToolError, findError } from 'golem';
import { Agent, Tool, agentFromClass } from 'golem/decorators';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { UndeclaredToolError } from '../support/internal-errors';

class Query {
  @IsString() q!: string;
}

@Agent({ toolRetries: 3 })
class Guarded {
  readonly invoked: string[] = [];

  @Tool() search(args: Query): string {
    this.invoked.push(`search:${args.q}`);
    return 'found';
  }

  toString(): string {
    this.invoked.push('toString');
    return 'Guarded';
  }
}

@Agent()
class NamedLikePrototype {
  readonly invoked: string[] = [];

  @Tool({ name: 'valueOf' }) compute(): string {
    this.invoked.push('compute');
    return '42';
  }
}

describe('ADV-13 prototype-named tools', () => {
  test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'ADV-13 a model calling %s gets the undeclared-tool failure',
    async (name) => {
      const instance = new Guarded();
      const model = new ScriptedModel([
        toolCallResponse([{ id: 'c1', name, args: { q: 'x' } }]),
        textResponse('unreachable'),
      ]);

      const failure: unknown = await agentFromClass(instance, { model })
        .run('go')
        .then(
          () => undefined,
          (error: unknown) => error,
        );

      expect(RunError.is(failure) && failure.stage).toBe('tool');
      expect(findError(failure, ToolError.is)?.toolName).toBe(name);
      expect(findError(failure, UndeclaredToolError.is)?.toolName).toBe(name);
      expect(instance.invoked).toEqual([]);
      expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['search']);
    },
  );

  test('ADV-13 a tool declared with a prototype member name runs its own method', async () => {
    const instance = new NamedLikePrototype();
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'c1', name: 'valueOf' }]),
      textResponse('done'),
    ]);

    const result = await agentFromClass(instance, { model }).run('go');

    expect(result.messages[2]?.content).toBe('42');
    expect(instance.invoked).toEqual(['compute']);
  });
});
