/**
 * `@Evaluator` and `evaluatorFromClass`: a decorated class becomes an evals `Evaluator` (name,
 * threshold, `evaluate` on the instance), from the class or from an instance built elsewhere;
 * declaration mistakes are `ConfigError`s (component `decorators`) naming the class.
 */
import { ConfigError } from 'golem';
import {
  Evaluator,
  evaluatorFromClass,
  isEvaluatorClass,
  type EvaluatorDecoratorOptions,
} from 'golem/decorators';
import type { EvalContext, EvalScore } from 'golem/evals';

/** The context an evaluator sees, with only what these evaluators read filled in. */
function context(output: string): EvalContext<string, string> {
  return {
    case: { name: 'c1', input: 'hi' },
    input: 'hi',
    expected: undefined,
    output,
    messages: [],
    events: [],
    toolCalls: [],
    turns: 1,
    requests: 1,
    usage: { inputTokens: 0, outputTokens: 0 },
    cost: undefined,
    durationMs: 5,
    repeat: 0,
    signal: new AbortController().signal,
  };
}

function failure(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (ConfigError.is(error, 'decorators')) return error;
    throw error;
  }
  throw new Error('no error thrown');
}

@Evaluator({ name: 'polite', threshold: 0.7 })
class Politeness {
  constructor(private readonly words: readonly string[] = ['please', 'thank you']) {}

  evaluate(ctx: EvalContext<string, string>): number {
    const text = ctx.output.toLowerCase();
    return this.words.filter((word) => text.includes(word)).length / this.words.length;
  }
}

@Evaluator()
class NotEmpty {
  evaluate(ctx: EvalContext<string, string>): Promise<EvalScore> {
    return Promise.resolve({ pass: ctx.output !== '', reason: `length ${ctx.output.length}` });
  }
}

describe('@Evaluator and evaluatorFromClass', () => {
  test('a decorated class gives an evaluator with its name, threshold and evaluate', async () => {
    const evaluator = evaluatorFromClass(Politeness);
    expect(evaluator.name).toBe('polite');
    expect(evaluator.threshold).toBe(0.7);
    expect(await evaluator.evaluate(context('Please, and thank you!'))).toBe(1);
    expect(await evaluator.evaluate(context('Please go.'))).toBe(0.5);
    expect(Object.isFrozen(evaluator)).toBe(true);
  });

  test('without a name the evaluator is named after the class, with no threshold', async () => {
    const evaluator = evaluatorFromClass(NotEmpty);
    expect(evaluator.name).toBe('NotEmpty');
    expect('threshold' in evaluator).toBe(false);
    expect(await evaluator.evaluate(context(''))).toEqual({ pass: false, reason: 'length 0' });
  });

  test('an instance built elsewhere is used as it is: its collaborators and state', async () => {
    const evaluator = evaluatorFromClass(new Politeness(['merci']));
    expect(evaluator.name).toBe('polite');
    expect(await evaluator.evaluate(context('Merci beaucoup'))).toBe(1);
    expect(await evaluator.evaluate(context('please'))).toBe(0);
  });

  test('a class is instantiated once per evaluatorFromClass call', () => {
    let created = 0;
    @Evaluator()
    class Counting {
      constructor() {
        created++;
      }
      evaluate(): boolean {
        return true;
      }
    }
    const evaluator = evaluatorFromClass(Counting);
    void evaluator.evaluate(context('x'));
    void evaluator.evaluate(context('y'));
    expect(created).toBe(1);
  });

  test('a subclass inherits its base options and overrides them option by option', () => {
    @Evaluator({ threshold: 0.9 })
    class Stricter extends Politeness {}
    class Plain extends Politeness {}
    expect(evaluatorFromClass(Stricter)).toMatchObject({ name: 'polite', threshold: 0.9 });
    expect(evaluatorFromClass(Plain)).toMatchObject({ name: 'polite', threshold: 0.7 });
    expect(isEvaluatorClass(Plain)).toBe(true);
    expect(isEvaluatorClass(class Other {})).toBe(false);
    expect(isEvaluatorClass(new Politeness())).toBe(false);
  });

  test('a class without evaluate is refused, naming the class and the method', () => {
    // @ts-expect-error -- the decorator's type requires an evaluate method
    @Evaluator({ name: 'broken' })
    class NoEvaluate {
      judge(): boolean {
        return true;
      }
    }
    const error = failure(() => evaluatorFromClass(NoEvaluate as never));
    expect(error).toMatchObject({
      reason: 'not-a-method',
      className: 'NoEvaluate',
      member: 'evaluate',
    });
    expect(error.message).toMatch(
      /^NoEvaluate\.evaluate: an @Evaluator class needs an evaluate\(ctx\) method/,
    );
  });

  test('an undecorated class is refused with the decorator to add', () => {
    class Undecorated {
      evaluate(): boolean {
        return true;
      }
    }
    const error = failure(() => evaluatorFromClass(Undecorated));
    expect(error.className).toBe('Undecorated');
    expect(error.message).toBe(
      'Undecorated: is not an evaluator; decorate the class with @Evaluator() from golem/decorators',
    );
    expect(failure(() => evaluatorFromClass({ evaluate: () => true })).className).toBe('Object');
  });

  test('a class that needs constructor arguments is refused with the instance to pass', () => {
    @Evaluator()
    class NeedsService {
      constructor(private readonly service: { ok(): boolean }) {}
      evaluate(): boolean {
        return this.service.ok();
      }
    }
    const error = failure(() => evaluatorFromClass(NeedsService as never));
    expect(error.className).toBe('NeedsService');
    expect(error.message).toMatch(/could not be created without constructor arguments/);
    expect(error.message).toMatch(/pass the instance/);
    const evaluator = evaluatorFromClass(new NeedsService({ ok: () => true }));
    expect(evaluator.evaluate(context('x'))).toBe(true);
  });

  test('a constructor that throws is refused with its error as the cause', () => {
    const boom = new Error('no API key');
    @Evaluator()
    class Throwing {
      constructor() {
        throw boom;
      }
      evaluate(): boolean {
        return true;
      }
    }
    const error = failure(() => evaluatorFromClass(Throwing));
    expect(error.message).toMatch(
      /^Throwing: could not be created without constructor arguments \(no API key\)/,
    );
    expect(error.cause).toBe(boom);
  });

  test('invalid options are refused when the class is decorated, naming the class', () => {
    const decorate = (options: unknown) => () => {
      @Evaluator(options as EvaluatorDecoratorOptions)
      class Judged {
        evaluate(): boolean {
          return true;
        }
      }
      return Judged;
    };
    expect(failure(decorate({ threshold: 1.5 })).message).toBe(
      'Judged: @Evaluator threshold must be a number from 0 to 1, got 1.5',
    );
    expect(failure(decorate({ name: '  ' })).message).toMatch(/^Judged: @Evaluator name must be/);
    expect(failure(decorate({ treshold: 0.5 })).message).toMatch(
      /@Evaluator has no option "treshold"; its options are name and threshold/,
    );
    expect(failure(decorate('polite')).reason).toBe('invalid-option');
  });

  test('an anonymous class needs a name', () => {
    const cls = class {
      evaluate(): boolean {
        return true;
      }
    };
    Object.defineProperty(cls, 'name', { value: '' });
    Evaluator()(cls);
    expect(failure(() => evaluatorFromClass(cls)).message).toMatch(
      /an anonymous evaluator class needs a name/,
    );
    Evaluator({ name: 'named' })(cls);
    expect(evaluatorFromClass(cls).name).toBe('named');
  });

  test('something that is neither a class nor an object is refused', () => {
    expect(failure(() => evaluatorFromClass(42 as never)).message).toMatch(
      /evaluatorFromClass takes an @Evaluator class or an instance of one, got number/,
    );
  });
});
